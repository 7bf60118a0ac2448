// A save that lands while the gateway starts (after its config was read, before the file is
// watched) sends no event the watch can see; it is found when the watch begins and reloaded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { configDigest, loadConfig, watchConfig } from '../../src/config/index.js';
import { until } from '../helpers/until.js';
import { rolesConfig, servedBy, startFromFile } from './fixtures.js';

test('a change saved between loading the config and watching the file is reloaded when the watch begins', async () => {
  const h = await startFromFile((fleet) => rolesConfig(fleet));
  // What `warden start` does: the digest of the text it loaded, taken before loading.
  const loaded = configDigest(h.file);
  writeFileSync(h.file, readFileSync(h.file, 'utf8').replace('models: [chat-main, chat-small], checks', 'models: [chat-small, chat-main], checks'));
  const watch = watchConfig({ file: h.file, loaded, sighup: false, debounceMs: 20, reload: (trigger) => void h.gateway.reload(() => loadConfig(h.file, {}), trigger) });
  try {
    const [event] = await until(() => {
      const events = h.gateway.store.audit(10, { type: 'config_reloaded' });
      return events.length > 0 ? events : null;
    }, 'the change made before the watch is reloaded');
    assert.deepEqual([event!.detail.trigger, event!.detail.applied], ['file', ['roles']]);
    assert.equal(await servedBy(h.client, 'chat'), 'chat-small');
  } finally {
    watch.close();
    await h.close();
  }
});
