// The audit log with its filters (route, type, time window). The filter goes to the gateway
// with every poll, so the newest matching events are always what is shown.
import { $, el } from './dom.js';
import { time, dateTime } from './format.js';

/** The event types the gateway writes today; types seen in the log are added as they come. */
const KNOWN_TYPES = [
  'quarantine', 'would_quarantine', 'floor_held', 'release_early', 'would_release', 'expired', 'released', 'retest_language',
  'probe_invalidated', 'canary_round', 'block_added', 'block_removed', 'shed', 'shed_manual', 'restore_manual', 'manual_cleared',
  'breaker_open', 'breaker_half_open', 'breaker_closed', 'config_fault',
  'role_changed', 'role_overlay_dropped', 'role_overlay_rejected', 'rollout_started', 'rollout_advanced', 'rollout_promoted', 'rollout_rolled_back',
  'config_reloaded', 'config_reload_rejected',
];
const seenTypes = new Set(KNOWN_TYPES);

/** Query parameters for the snapshot call; `now` is the gateway's clock from the last snapshot. */
export function auditParams(now) {
  const params = new URLSearchParams();
  const route = $('#audit-route').value;
  const type = $('#audit-type').value.trim();
  const window = Number($('#audit-since').value);
  if (route) params.set('route', route);
  if (type) params.set('type', type);
  if (window > 0 && now) params.set('since', String(now - window));
  params.set('limit', $('#audit-limit').value || '50');
  return params;
}

/** Keeps the route choices in step with the routes, without losing the current choice. */
export function renderAuditFilters(snapshot) {
  const select = $('#audit-route');
  const ids = snapshot.routes.map((r) => r.id);
  const current = [...select.options].slice(1).map((o) => o.value);
  if (current.join('\n') !== ids.join('\n')) {
    const chosen = select.value;
    select.replaceChildren(el('option', { value: '' }, 'all routes'), ...ids.map((id) => el('option', { value: id }, id)));
    select.value = ids.includes(chosen) ? chosen : '';
  }
  const before = seenTypes.size;
  for (const e of snapshot.audit.events) seenTypes.add(e.type);
  const list = $('#audit-types');
  if (list.children.length === 0 || seenTypes.size !== before) list.replaceChildren(...[...seenTypes].sort().map((t) => el('option', { value: t })));
}

/** `opened`: keys of events whose detail is unfolded (kept across polls). */
export function renderAudit(tbody, events, opened) {
  const rows = events.map((e) => {
    const key = `${e.at}|${e.type}|${e.route ?? ''}`;
    const details = el('details', { open: opened.has(key) }, el('summary', {}, summary(e.detail)), el('pre', {}, JSON.stringify(e.detail, null, 2)));
    details.addEventListener('toggle', () => (details.open ? opened.add(key) : opened.delete(key)));
    return el('tr', { dataset: { type: e.type, route: e.route ?? '' } },
      el('td', {}, time(e.at), el('div', { class: 'sub' }, dateTime(e.at))),
      el('td', { class: 'id' }, e.type),
      el('td', { class: 'id' }, e.route ?? '—'),
      el('td', { class: 'wrap' }, details),
    );
  });
  tbody.replaceChildren(...(rows.length ? rows : [el('tr', {}, el('td', { colspan: 4, class: 'empty' }, 'No audit events match.'))]));
}

/** One line from the detail's telling fields; the whole detail unfolds below it. */
function summary(detail) {
  const parts = [];
  for (const key of ['role', 'roles', 'reason', 'why', 'cause', 'reasons', 'by', 'step', 'from', 'alert', 'mode', 'routes', 'id']) {
    const v = detail?.[key];
    if (v === undefined || v === null || v === '') continue;
    // The canary's ladder step is 0-based in the record; the Ladder column and the alerts count from 1.
    if (key === 'step' && typeof v === 'number') {
      parts.push(`ladder step ${v + 1}`);
      continue;
    }
    parts.push(`${key}: ${Array.isArray(v) ? (v.length > 3 ? `${v.slice(0, 3).join(', ')}, …` : v.join(', ')) : typeof v === 'object' ? '…' : v}`);
  }
  if (parts.length > 0) return parts.join(' · ');
  const json = JSON.stringify(detail);
  return json.length > 120 ? `${json.slice(0, 119)}…` : json;
}
