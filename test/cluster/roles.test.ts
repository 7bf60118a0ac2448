// Runtime role changes across two instances on one Redis: a chain replaced through A serves
// A's next request and reaches B within a second; a rollout started on A splits B's traffic
// the same way for the same sticky keys, and dropping the overlay on B reaches A.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster, type Cluster, type Instance } from '../helpers/cluster.js';
import { redisMissing } from '../helpers/redis-server.js';
import { until } from '../helpers/until.js';
import { admin, ALICE, BOB, rolesConfig, SCENARIO, servedBy } from '../roles/fixtures.js';

const missing = redisMissing();
if (missing) console.log(`# skipped: ${missing}`);

describe('role changes across instances sharing Redis', { skip: missing ?? false }, () => {
  let cluster: Cluster;
  let nodes: Instance[];

  before(async () => {
    cluster = await startCluster(2, SCENARIO, rolesConfig);
    ({ nodes } = cluster);
  });
  after(() => cluster?.close());

  test('a chain replaced through A is used by A\u2019s next request and by B within a second', async () => {
    const [a, b] = nodes as [Instance, Instance];
    assert.equal(await servedBy(b.client, 'chat'), 'chat-main');
    const put = await admin(a.url, ALICE, 'PUT', '/admin/roles/chat', { models: ['chat-small', 'chat-main'], checks: ['nonempty'], reason: 'provider incident' });
    assert.equal(put.status, 200);
    assert.equal(await servedBy(a.client, 'chat'), 'chat-small');
    await until(() => b.gateway.roles.effective.roles.chat!.models[0] === 'chat-small', 'B adopts the new chain', 1_000);
    assert.equal(await servedBy(b.client, 'chat'), 'chat-small');
    const [event] = b.gateway.store.audit(1, { type: 'role_changed' });
    assert.equal(event!.detail.by, 'alice', 'A\u2019s audit event is visible on B');
    assert.equal(b.gateway.store.audit(100, { type: 'role_changed' }).length, 1, 'audited once, by the instance that made the change');
  });

  test('a rollout started on A splits B\u2019s traffic alike for the same keys; dropping the overlay on B reaches A', async () => {
    const [a, b] = nodes as [Instance, Instance];
    await admin(a.url, ALICE, 'POST', '/admin/roles/chat/rollout', { candidate: 'chat-new', weight: 30, reason: 'try chat-new' });
    await until(() => b.gateway.roles.effective.roles.chat!.rollout !== undefined, 'B adopts the rollout', 1_000);
    for (let i = 0; i < 20; i++) assert.equal(await servedBy(b.client, 'chat', `user-${i}`), await servedBy(a.client, 'chat', `user-${i}`));

    assert.equal((await admin(b.url, BOB, 'DELETE', '/admin/roles/overlay', { reason: 'incident over' })).status, 200);
    await until(() => a.gateway.roles.effective.roles.chat!.models[0] === 'chat-main' && !a.gateway.roles.effective.roles.chat!.rollout, 'A drops the overlay', 1_000);
    assert.equal(await servedBy(a.client, 'chat', 'user-1'), 'chat-main');
  });
});
