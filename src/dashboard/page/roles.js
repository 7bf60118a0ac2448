// The Roles panel: each role as it serves (tier, chain, checks, thinking), whether the YAML or
// the runtime overlay holds it and who changed it, and a rollout's split with the figures of
// its models side by side, with the role actions per row.
import { $, el } from './dom.js';
import { count, dateTime, ms, percent, relativeNode, usd } from './format.js';
import { badge } from './routes.js';

const COLUMNS = 8;

/** `unpriced`: models with no price, whose cost is unknown rather than $0. */
export function renderRoles(tbody, data, now, unpriced = []) {
  const notice = $('#overlay-rejected');
  notice.hidden = data.overlay.rejected === null;
  notice.textContent = data.overlay.rejected === null ? '' : `The stored overlay no longer fits the YAML and is not served (the YAML roles are): ${data.overlay.rejected}`;
  const names = $('#model-names');
  if ([...names.options].map((o) => o.value).join('\n') !== data.models.join('\n')) names.replaceChildren(...data.models.map((m) => el('option', { value: m })));

  const rows = [];
  for (const r of data.roles) {
    rows.push(
      el('tr', { dataset: { role: r.name, source: r.source } },
        el('td', { class: 'id' }, r.name),
        el('td', {}, r.tier),
        el('td', { class: 'wrap' },
          el('span', { class: 'chain' }, r.models.join(' → ')),
          r.yamlModels ? el('div', { class: 'sub' }, `YAML: ${r.yamlModels.join(' → ')}`) : null,
          r.escalation ? el('div', { class: 'sub' }, `escalates to ${r.escalation}`) : null,
        ),
        el('td', {}, r.checks.length ? r.checks.join(', ') : '—'),
        el('td', {}, r.thinking),
        el('td', { class: 'wrap' }, badge(r.source, 'source'), r.added ? el('div', { class: 'sub' }, 'added at run time') : null, note(r.change, now)),
        el('td', { class: 'wrap' }, r.rollout ? rolloutCell(r.rollout, now) : '—'),
        el('td', { class: 'actions' }, actions(r)),
      ),
    );
    if (r.rollout) rows.push(el('tr', { class: 'figures', dataset: { figuresFor: r.name } }, el('td', { colspan: COLUMNS }, el('div', { class: 'evidence-scroll' }, figuresTable(r.rollout, new Set(unpriced))))));
  }
  if (rows.length === 0) rows.push(el('tr', {}, el('td', { colspan: COLUMNS, class: 'empty' }, 'No roles configured.')));
  tbody.replaceChildren(...rows);
}

/** Who, when and why: a role's last overlay change, or who started a rollout. */
function note(change, now) {
  if (!change) return null;
  return [el('div', { class: 'sub' }, `by ${change.by}, ${dateTime(change.at)} (`, relativeNode(change.at, now), ')'), el('div', { class: 'sub why' }, change.reason)];
}

function rolloutCell(rollout, now) {
  const auto = rollout.auto;
  return [
    el('div', { class: 'split' }, rollout.arms.map((a) => `${a.model} ${weight(a.weight)}`).join(' · ')),
    auto ? el('div', { class: 'sub' }, `automatic: after ${count(auto.after)} requests, bound ${percent(auto.bound)}, steps ${auto.steps.join(' / ')}`) : null,
    rollout.started ? note({ ...rollout.started, reason: `started: ${rollout.started.reason}` }, now) : el('div', { class: 'sub' }, 'written in the YAML'),
  ];
}

function figuresTable(rollout, unpriced) {
  const [candidate] = rollout.arms;
  return el('table', { class: 'grid' },
    el('caption', { class: 'sub' }, rollout.since === null ? 'no figures yet' : `figures of this instance since the weights took effect, ${dateTime(rollout.since)}`),
    el('thead', {}, el('tr', {}, ['Model', 'Weight', 'Requests', 'Fallback rate', 'Quality failure rate', 'Errors', 'Latency p50', 'Cost (USD)'].map((h) => el('th', {}, h)))),
    el('tbody', {}, rollout.arms.map((a) =>
      el('tr', { dataset: { arm: a.model } },
        el('td', { class: 'id' }, a.model, el('div', { class: 'sub' }, rollout.candidate !== null && a === candidate ? 'candidate' : 'incumbent')),
        el('td', { class: 'num' }, weight(a.weight)),
        el('td', { class: 'num' }, count(a.requests)),
        el('td', { class: 'num' }, a.requests ? `${percent(a.fallbackRate)} (${count(a.fallbacks)})` : '—'),
        el('td', { class: 'num' }, a.requests ? `${percent(a.qualityFailureRate)} (${count(a.qualityFailures)})` : '—'),
        el('td', { class: 'num' }, count(a.errors)),
        el('td', { class: 'num' }, ms(a.latencyP50Ms)),
        unpriced.has(a.model) ? el('td', { class: 'num', title: 'no price configured (profile.price)' }, 'unknown') : el('td', { class: 'num' }, usd(a.costUsd, 6)),
      ),
    )),
  );
}

function actions(r) {
  const buttons = [['chain', 'Change chain…', 'replace the model chain']];
  if (r.rollout) buttons.push(['advance', 'Advance…', 'move the split; 100 promotes the candidate'], ['rollback', 'Roll back…', 'end the rollout and restore the role as it was']);
  else buttons.push(['rollout', 'Start rollout…', 'split the primary traffic with a candidate model']);
  if (r.source === 'overlay') buttons.push(['drop', 'Drop overlay…', 'serve the YAML role again']);
  return buttons.map(([action, label, title]) => el('button', { type: 'button', class: `small${action === 'rollback' || action === 'drop' ? ' danger' : ''}`, dataset: { action, role: r.name }, title, 'aria-label': `${label.replace('…', '')} ${r.name}` }, label));
}

const weight = (w) => `${Math.round(w * 10) / 10}%`;
