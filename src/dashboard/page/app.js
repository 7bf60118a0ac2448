// The dashboard page: asks for the admin token, polls GET /admin/dashboard every 2 s and
// redraws only the panels whose data changed, and runs the manual actions (on routes and on
// roles) after a confirmation.
import { api, token } from './api.js';
import { auditParams, renderAudit, renderAuditFilters } from './audit.js';
import { renderBlocks } from './blocks.js';
import { renderChart } from './charts.js';
import { confirmAction, showResult } from './dialog.js';
import { $ } from './dom.js';
import { count, ms, percent, tickRelative, time } from './format.js';
import { renderModelRates, renderNumbers } from './numbers.js';
import { roleAction } from './role-actions.js';
import { renderRoles } from './roles.js';
import { renderRoutes } from './routes.js';

const POLL_MS = 2000;

const state = {
  snapshot: null,
  timer: null,
  polling: null,
  /** Aborts the poll under way: "Forget token" must not be undone by an answer still coming. */
  inflight: null,
  again: false,
  /** Route ids whose evidence row is open, and audit events whose detail is unfolded. */
  expanded: new Set(),
  opened: new Set(),
  /** Last data drawn per panel: a panel whose data is unchanged is left alone (focus, scroll, open rows). */
  drawn: new Map(),
};

function setStatus(text, tone) {
  const status = $('#status');
  status.textContent = text;
  status.dataset.tone = tone;
}

function showSession(connected) {
  $('#token-form').hidden = connected;
  $('#session').hidden = !connected;
  $('#main').hidden = !connected;
}

function draw(key, data, fn) {
  const json = JSON.stringify(data);
  if (state.drawn.get(key) === json) return;
  state.drawn.set(key, json);
  fn();
}

function render(snapshot) {
  state.snapshot = snapshot;
  // Without a canary section there is no round to run (the API would answer 409).
  $('#run-round').hidden = snapshot.canary === null;
  draw('routes', [snapshot.routes, [...state.expanded], snapshot.canary], () => renderRoutes($('#routes tbody'), snapshot, state.expanded));
  draw('roles', [snapshot.roles, snapshot.counterfactuals.unpricedModels], () => renderRoles($('#role-table tbody'), snapshot.roles, snapshot.at, snapshot.counterfactuals.unpricedModels));
  const points = snapshot.timeline.points;
  const empty = (none) => (points.length ? none : `No data yet: a point is added every ${Math.round(snapshot.timeline.everyMs / 100) / 10} s.`);
  draw('timeline', points, () => {
    renderChart($('#chart-fallback'), points, { field: 'fallbackRate', format: percent, max: 1, empty: empty('No requests in this window.'), detail: (p, n) => ` (${count(p.fallbacks[n] ?? 0)} of ${count(p.firstAttempts[n] ?? 0)} first attempts fell back)` });
    renderChart($('#chart-first-token'), points, { field: 'firstTokenMs', format: ms, tick: (v) => (v >= 1000 ? `${+(v / 1000).toFixed(1)} s` : `${v} ms`), empty: empty('No streamed answers in this window.') });
    renderChart($('#chart-openings'), points, { field: 'breakerOpenings', kind: 'bar', format: count, empty: empty('No breaker has opened in this window.') });
  });
  draw('numbers', snapshot.counterfactuals, () => {
    renderNumbers($('#cards'), $('#roles tbody'), snapshot.counterfactuals);
    renderModelRates($('#model-rates tbody'), snapshot.counterfactuals.models);
  });
  draw('blocks', snapshot.blocks, () => renderBlocks($('#blocks tbody'), snapshot));
  renderAuditFilters(snapshot);
  draw('audit', snapshot.audit.events, () => renderAudit($('#audit tbody'), snapshot.audit.events, state.opened));
  // Panels left alone keep their "in 20 s" and "3 min ago" true against the gateway's clock.
  tickRelative($('#main'), snapshot.at);
}

/** One poll; the next is scheduled when it is done, so polls never pile up on a slow gateway. */
async function poll() {
  clearTimeout(state.timer);
  if (!token.get()) return;
  state.inflight = new AbortController();
  try {
    const snapshot = await api('GET', `admin/dashboard?${auditParams(state.snapshot?.at).toString()}`, undefined, state.inflight.signal);
    showSession(true);
    render(snapshot);
    delete $('#main').dataset.stale;
    setStatus(`live · gateway time ${time(snapshot.at)}`, 'ok');
  } catch (e) {
    if (!token.get()) return; // forgotten meanwhile
    if (e.status === 401 || e.status === 403) {
      token.clear();
      showSession(false);
      setStatus(e.status === 401 ? 'the admin token was refused' : e.message, 'error');
      return;
    }
    // The panels keep the last answer, marked and dated, so nobody acts on it as if it were live.
    if (state.snapshot) $('#main').dataset.stale = '';
    setStatus(`cannot reach the gateway: ${e.message}${state.snapshot ? ` · showing data from ${time(state.snapshot.at)}` : ''}`, 'error');
  }
  state.timer = setTimeout(refresh, POLL_MS);
}

/** Polls now (after an action or a filter change); one under way is followed by a fresh one, as it may predate the change. */
function refresh() {
  if (state.polling) {
    state.again = true;
    return state.polling;
  }
  state.polling = poll().finally(() => {
    state.polling = null;
    if (state.again) {
      state.again = false;
      void refresh();
    }
  });
  return state.polling;
}

const ROUTE_ACTIONS = {
  release: { title: 'Release', done: 'Released', text: 'ends its quarantine now and clears manual shed or restore; the canary probes it again from a clean count.', reason: null },
  shed: { title: 'Shed', done: 'Shed', text: 'takes it out of service now; its in-flight requests get the drain window, then move elsewhere. It stays out until released.', reason: { required: true, placeholder: 'e.g. provider incident #123' } },
  restore: { title: 'Restore', done: 'Restored', text: 'keeps it in service whatever the canary says, until released.', reason: { required: true, placeholder: 'why it is trusted' } },
};

async function routeAction(action, route) {
  if (action === 'block') return addBlock(route);
  const spec = ROUTE_ACTIONS[action];
  const answer = await confirmAction({ title: `${spec.title} ${route}?`, text: `${spec.title} ${spec.text}`, confirmLabel: spec.title, reason: spec.reason });
  if (!answer) return;
  await perform(`${spec.title} ${route}`, async () => {
    const body = answer.reason ? { reason: answer.reason } : {};
    const result = await api('POST', `admin/routes/${encodeURIComponent(route)}/${action}`, body);
    return `${spec.done} ${route}: now ${result.route?.state ?? 'unknown'}`;
  });
}

async function addBlock(route) {
  const answer = await confirmAction({
    title: `Block ${route}?`,
    text: 'Adds a runtime incident block: the route takes no new request at once (in-flight requests drain). It is kept across restarts until removed or expired.',
    confirmLabel: 'Block',
    reason: { required: true, placeholder: 'e.g. garbled replies since 14:05' },
    fields: [{ name: 'ttl', label: 'Expires after (optional: 30m, 2h, 1d)', optional: true }],
  });
  if (!answer) return;
  await perform(`Block ${route}`, async () => {
    const block = await api('POST', 'admin/blocklist', { route, reason: answer.reason, ...(answer.ttl ? { ttl: answer.ttl } : {}) });
    return `Blocked ${route} as ${block.id}${block.until ? ` until ${time(block.until)}` : ''}`;
  });
}

async function removeBlock(id, route) {
  const answer = await confirmAction({ title: `Remove block ${id}?`, text: `${route} comes back into service unless another layer holds it.`, confirmLabel: 'Remove' });
  if (!answer) return;
  await perform(`Remove ${id}`, async () => {
    const result = await api('DELETE', `admin/blocklist/${encodeURIComponent(id)}`);
    return `Removed block ${result.removed?.id ?? id} from ${result.removed?.route ?? route}`;
  });
}

async function runRound() {
  const answer = await confirmAction({ title: 'Run a canary round now?', text: 'Every watched route gets its probes now, pinned to it alone; the verdicts move the quarantine ladder as a scheduled round would.', confirmLabel: 'Run round' });
  if (!answer) return;
  const button = $('#run-round');
  button.disabled = true;
  try {
    await perform('Canary round', async () => {
      const report = await api('POST', 'admin/canary/run', {});
      const verdicts = {};
      for (const r of report.routes) verdicts[r.round.verdict] = (verdicts[r.round.verdict] ?? 0) + 1;
      const decisions = report.routes.flatMap((r) => r.decisions.map((d) => `${d.type} ${r.route}`));
      const tally = Object.entries(verdicts).map(([v, n]) => `${n} ${v}`).join(', ');
      return `Canary round at ${time(report.at)}: ${report.routes.length} routes (${tally || 'none'})${decisions.length ? `; ${decisions.join('; ')}` : ''}${report.alerts.length ? `; alerts: ${report.alerts.join('; ')}` : ''}`;
    });
  } finally {
    button.disabled = false;
  }
}

/** Runs an action, shows what came of it, and redraws at once. */
async function perform(label, fn) {
  showResult('pending', `${label}…`);
  try {
    showResult('ok', await fn());
  } catch (e) {
    const why = [e.code, e.param ? `field ${e.param}` : null].filter(Boolean).join(', ');
    showResult('error', `${label} failed: ${e.message}${why ? ` (${why})` : ''}`);
  }
  await refresh();
}

function wire() {
  $('#token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const value = $('#token').value.trim();
    if (!value) return;
    token.set(value);
    $('#token').value = '';
    setStatus('connecting…', 'idle');
    void refresh();
  });
  $('#forget').addEventListener('click', () => {
    token.clear();
    clearTimeout(state.timer);
    state.inflight?.abort();
    state.drawn.clear();
    showSession(false);
    setStatus('not connected', 'idle');
  });
  $('#run-round').addEventListener('click', () => void runRound());
  $('#routes').addEventListener('click', (event) => {
    const button = event.target.closest('button[data-action]');
    if (!button) return;
    const { action, route } = button.dataset;
    if (action === 'evidence') {
      if (state.expanded.has(route)) state.expanded.delete(route);
      else state.expanded.add(route);
      if (state.snapshot) render(state.snapshot);
      return;
    }
    void routeAction(action, route);
  });
  $('#role-table').addEventListener('click', (event) => {
    const button = event.target.closest('button[data-action]');
    const role = button && state.snapshot?.roles.roles.find((r) => r.name === button.dataset.role);
    if (role) void roleAction(button.dataset.action, role, perform);
  });
  $('#blocks').addEventListener('click', (event) => {
    const button = event.target.closest('button[data-action="remove"]');
    if (button) void removeBlock(button.dataset.block, button.dataset.route);
  });
  const filters = $('#audit-filter');
  filters.addEventListener('submit', (event) => event.preventDefault());
  filters.addEventListener('change', () => void refresh());
  let typing = null;
  $('#audit-type').addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => void refresh(), 300);
  });
}

wire();
if (token.get()) {
  setStatus('connecting…', 'idle');
  void refresh();
}
