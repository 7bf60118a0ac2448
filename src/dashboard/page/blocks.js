// Runtime incident blocks (layer 2), each with its Remove button.
import { el } from './dom.js';
import { dateTime, relativeNode } from './format.js';

export function renderBlocks(tbody, snapshot) {
  const rows = snapshot.blocks.map((b) =>
    el('tr', { dataset: { block: b.id, route: b.route } },
      el('td', { class: 'id' }, b.route),
      el('td', { class: 'wrap' }, b.reason, b.by ? el('div', { class: 'sub' }, `by ${b.by}, ${dateTime(b.createdAt)}`) : null),
      el('td', {}, b.until === null ? 'no end' : [dateTime(b.until), el('div', { class: 'sub' }, relativeNode(b.until, snapshot.at))]),
      el('td', { class: 'id' }, b.id),
      el('td', {}, el('button', { type: 'button', class: 'small danger', dataset: { action: 'remove', block: b.id, route: b.route }, 'aria-label': `Remove block ${b.id}` }, 'Remove')),
    ),
  );
  tbody.replaceChildren(...(rows.length ? rows : [el('tr', {}, el('td', { colspan: 5, class: 'empty' }, 'No runtime blocks.'))]));
}
