// The routes table: state and the layer holding each route, until when, breaker, the canary's
// last round (per probe on demand) and the ladder step, with the manual actions per row.
import { el } from './dom.js';
import { dateTime, ms, relativeNode, span, time } from './format.js';

const ACTIONS = [
  ['release', 'Release', 'end a quarantine and clear manual overrides'],
  ['shed', 'Shed', 'take out of service now and drain'],
  ['restore', 'Restore', 'keep in service whatever the canary says'],
  ['block', 'Block…', 'add a runtime incident block'],
];

const PROBE_DUE = 'retry due: the next request probes it';

/** `expanded`: route ids whose evidence row is open (kept across polls). */
export function renderRoutes(tbody, snapshot, expanded) {
  const rows = [];
  for (const r of snapshot.routes) {
    const open = expanded.has(r.id);
    const probes = r.canary?.probes ?? [];
    rows.push(
      el('tr', { dataset: { route: r.id, state: r.state } },
        el('td', { class: 'id' },
          r.id,
          probes.length > 0 ? el('div', {}, el('button', { type: 'button', class: 'small quiet', dataset: { action: 'evidence', route: r.id }, 'aria-expanded': String(open) }, open ? 'Hide evidence' : `Evidence (${probes.length})`)) : null,
        ),
        el('td', {}, badge(r.state), r.restored ? el('div', { class: 'sub' }, restoredNote(r)) : null),
        el('td', { class: 'wrap' }, r.reasons.length ? el('ul', { class: 'reasons' }, r.reasons.map((why) => el('li', {}, why))) : el('span', { class: 'sub' }, '—')),
        el('td', {}, r.until === null ? '—' : [dateTime(r.until), el('div', { class: 'sub' }, relativeNode(r.until, snapshot.at, { due: r.breaker.retryAt === r.until ? PROBE_DUE : '' }))]),
        el('td', {}, badge(r.breaker.state), r.breaker.consecutiveFailures > 0 ? el('div', { class: 'sub' }, `${r.breaker.consecutiveFailures} transport failures`) : null, r.breaker.retryAt ? el('div', { class: 'sub' }, relativeNode(r.breaker.retryAt, snapshot.at, { prefix: 'retry ', due: PROBE_DUE })) : null),
        el('td', {}, canaryCell(r.canary, snapshot.at, unprobed(r, snapshot.canary))),
        el('td', {}, ladderCell(r.canary, snapshot.canary)),
        el('td', { class: 'actions' }, ACTIONS.map(([action, label, title]) => el('button', { type: 'button', class: 'small', dataset: { action, route: r.id }, title, 'aria-label': `${label.replace('…', '')} ${r.id}` }, label))),
      ),
    );
    if (open && probes.length > 0) rows.push(el('tr', { class: 'evidence', dataset: { evidenceFor: r.id } }, el('td', { colspan: 8 }, el('div', { class: 'evidence-scroll' }, evidenceTable(r.canary)))));
  }
  if (rows.length === 0) rows.push(el('tr', {}, el('td', { colspan: 8, class: 'empty' }, 'No routes yet: discovery has not finished.')));
  tbody.replaceChildren(...rows);
}

export function badge(state, attr = 'state') {
  return el('span', { class: 'badge', dataset: { [attr]: state } }, state.replace('_', '-'));
}

/** Why a route has no canary record: no canary at all, a model it does not watch, or no round yet. */
function unprobed(route, canary) {
  if (!canary) return 'no canary configured';
  return canary.watch.includes(route.model) ? 'no round yet' : 'not watched';
}

function canaryCell(c, now, why) {
  if (!c) return el('span', { class: 'sub' }, why);
  const notes = [];
  if (c.failedRounds > 0) notes.push(`${c.failedRounds} failed round${c.failedRounds > 1 ? 's' : ''} in a row`);
  if (c.quarantine && c.cleanRounds > 0) notes.push(c.quarantineNow === 'holding' ? `${c.cleanRounds} clean while quarantined` : `${c.cleanRounds} clean toward the quarantine's release`);
  if (c.wouldQuarantine) notes.push('would quarantine (observe mode)');
  return [
    c.verdict ? badge(c.verdict, 'verdict') : el('span', { class: 'sub' }, 'no round yet'),
    c.lastRoundAt ? el('div', { class: 'sub' }, `${time(c.lastRoundAt)} · `, relativeNode(c.lastRoundAt, now)) : null,
    c.roundReasons.length ? el('div', { class: 'sub' }, c.roundReasons.join(', ')) : null,
    notes.map((n) => el('div', { class: 'sub' }, n)),
  ];
}

function ladderCell(c, canary) {
  if (!c || c.ladderStep === null) return el('span', { class: 'sub' }, '—');
  const ladder = canary?.ladderMs ?? [];
  const length = ladder[Math.min(c.ladderStep, ladder.length - 1)];
  const label = `step ${c.ladderStep + 1}${ladder.length ? ` of ${ladder.length}` : ''}${length ? ` (${span(length)})` : ''}`;
  return [label, el('div', { class: 'sub' }, LADDER_NOW[c.quarantineNow ?? 'none'])];
}

/** The Ladder's word for the quarantine, matching the State column (a restored route is not held). */
const LADDER_NOW = {
  holding: 'held now',
  overridden: 'overridden by manual restore',
  lapsed: 'ended',
  none: 'last quarantine',
};

/** A restore keeps a route in service over the canary's quarantine only, not over a block, a shed or an open breaker. */
function restoredNote(r) {
  if (r.state !== 'healthy') return `manually restored, but still ${r.state.replace('_', '-')}: a restore overrides only the canary`;
  return r.canary?.quarantineNow === 'overridden' ? 'manually restored: serving despite the canary\'s quarantine' : 'manually restored';
}

function evidenceTable(c) {
  return el('table', { class: 'grid' },
    el('thead', {}, el('tr', {}, ['Probe', 'Verdict', 'Reason', 'First token', 'Total', 'Snippet', 'Detected languages', 'Parse error', 'Detail'].map((h) => el('th', {}, h)))),
    el('tbody', {}, c.probes.map((p) =>
      el('tr', { dataset: { probe: p.kind } },
        el('td', {}, p.kind, p.language ? el('div', { class: 'sub' }, p.language) : null),
        el('td', {}, badge(p.verdict, 'verdict'), p.invalidated ? el('div', { class: 'sub' }, 'void: a control passed') : null),
        el('td', {}, p.reason),
        el('td', { class: 'num' }, ms(p.firstTokenMs)),
        el('td', { class: 'num' }, ms(p.totalMs)),
        el('td', { class: 'wrap' }, p.snippet === null ? '—' : el('code', {}, p.snippet)),
        el('td', { class: 'wrap' }, p.languages ?? '—'),
        el('td', { class: 'wrap' }, p.parseError ?? '—'),
        el('td', { class: 'wrap' }, p.detail ?? '—'),
      ),
    )),
  );
}
