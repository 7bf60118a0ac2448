// Seed 002's counterfactual numbers: what would have reached users without the gateway.
import { el } from './dom.js';
import { count, percent, span, usd } from './format.js';

export function renderNumbers(cards, tbody, cf) {
  const b = cf.breakers;
  cards.replaceChildren(
    card('Fallbacks', count(cf.fallbacks), 'requests answered elsewhere after their first route failed'),
    card('Breaker openings', count(b.openings), openTime(b)),
    card('First-try recovery', percent(b.firstTryRate), `${count(b.firstTryRecoveries)} of ${count(b.recoveries)} closings; low means the cooldown is too short`),
    card('Strict-tier 503 rate', percent(cf.strict.rate), `${count(cf.strict.unavailable)} of ${count(cf.strict.requests)} strict requests`),
    costCard(cf),
  );
  const rows = cf.roles.map((r) =>
    el('tr', { dataset: { role: r.role } },
      el('td', { class: 'id' }, r.role),
      el('td', {}, r.tier ?? '—'),
      el('td', { class: 'num' }, count(r.requests)),
      el('td', { class: 'num' }, percent(r.fallbackShare)),
      el('td', { class: 'num' }, percent(r.degradedShare)),
      el('td', { class: 'num' }, r.requests ? `${percent(r.unavailableRate)} (${count(r.unavailable)})` : '—'),
      costCell(r, usd(r.costUsd)),
      costCell(r, usd(r.costPerRequest, 6)),
    ),
  );
  tbody.replaceChildren(...(rows.length ? rows : [el('tr', {}, el('td', { colspan: 8, class: 'empty' }, 'No roles configured.'))]));
}

/** The fallback rate per model since start: fallbacks from the model ÷ first attempts on it. */
export function renderModelRates(tbody, models) {
  const rows = models.map((m) =>
    el('tr', { dataset: { model: m.model } },
      el('td', { class: 'id' }, m.model),
      el('td', { class: 'num' }, count(m.firstAttempts)),
      el('td', { class: 'num' }, count(m.fallbacks)),
      el('td', { class: 'num' }, percent(m.fallbackRate)),
    ),
  );
  tbody.replaceChildren(...(rows.length ? rows : [el('tr', {}, el('td', { colspan: 4, class: 'empty' }, 'No role requests yet.'))]));
}

/** Time open is counted when a breaker closes: one open now is not in it yet, and must not read as "no time open". */
function openTime(b) {
  if (b.openSeconds > 0) return `${span(b.openSeconds * 1000)} out of service, counted as breakers closed`;
  return b.openings > 0 ? 'time out of service is counted when a breaker closes' : 'none opened yet';
}

const UNPRICED = 'no price configured (profile.price)';

/**
 * Cost is counted only for models with a price: with none, $0 would read as free, so it says
 * unknown; with some, the figure says it leaves the others out. Answers whose upstream sent
 * no usage are in no figure, priced or not: the note says so.
 */
function costCard(cf) {
  const missing = uncounted(cf.withoutUsage);
  if (cf.costUsd === null) return card('Cost', 'unknown', `${UNPRICED} for any model${missing}`);
  if (cf.unpricedModels.length > 0) return card('Cost', usd(cf.costUsd), `priced models only; ${UNPRICED} for ${cf.unpricedModels.join(', ')}${missing}`);
  return card('Cost', usd(cf.costUsd), `from usage and configured prices${missing}`);
}

/** `; N answers carried no usage and are not counted (routes)`, or nothing when every answer carried it. */
function uncounted(w) {
  if (!w || w.answers === 0) return '';
  const words = w.answers === 1 ? 'answer carried no usage and is' : 'answers carried no usage and are';
  return `; ${count(w.answers)} ${words} not counted (${w.routes.join(', ')})`;
}

function costCell(role, figure) {
  if (role.costUsd === null) return el('td', { class: 'num', title: `${UNPRICED} for ${role.unpricedModels.join(', ')}` }, 'unknown');
  if (role.unpricedModels.length === 0) return el('td', { class: 'num' }, figure);
  return el('td', { class: 'num', title: `leaves out ${role.unpricedModels.join(', ')}: ${UNPRICED}` }, figure, el('div', { class: 'sub' }, 'priced models only'));
}

function card(label, value, note) {
  return el('div', { class: 'card' }, el('div', { class: 'label' }, label), el('div', { class: 'value' }, value), el('div', { class: 'sub' }, note));
}
