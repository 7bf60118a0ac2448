// The confirmation every manual action asks for (an in-page dialog, so it can be read,
// filled in and clicked like the rest of the page), and the line that shows its result.
import { $, el } from './dom.js';

/**
 * Opens the dialog; resolves with `{reason, <field name>: value, …}` on Confirm, null on
 * Cancel or Escape. `reason`: null to hide the field, else `{required, value, placeholder}`;
 * `fields`: inputs above the reason, each `{name, label, value, placeholder, list, inputmode,
 * optional}` (its input's id is `confirm-<name>`; the first one not optional takes the focus).
 */
export function confirmAction({ title, text, confirmLabel = 'Confirm', reason = null, fields = [] }) {
  const dialog = $('#confirm');
  const reasonInput = $('#confirm-reason');
  const error = $('#confirm-error');
  const ok = $('#confirm-ok');
  const cancel = $('#confirm-cancel');
  $('#confirm-title').textContent = title;
  $('#confirm-text').textContent = text;
  $('#reason-field').hidden = reason === null;
  reasonInput.value = reason?.value ?? '';
  reasonInput.placeholder = reason?.placeholder ?? '';
  const inputs = fields.map((f) => el('input', { id: `confirm-${f.name}`, autocomplete: 'off', spellcheck: 'false', placeholder: f.placeholder, list: f.list, inputmode: f.inputmode }));
  inputs.forEach((input, i) => (input.value = fields[i].value ?? ''));
  $('#confirm-fields').replaceChildren(...fields.map((f, i) => el('label', { class: 'field' }, f.label, inputs[i])));
  error.hidden = true;
  ok.textContent = confirmLabel;

  return new Promise((resolve) => {
    const finish = (answer) => {
      ok.removeEventListener('click', onOk);
      cancel.removeEventListener('click', onCancel);
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    const onOk = () => {
      const why = reasonInput.value.trim();
      if (reason?.required && why === '') {
        error.textContent = 'A reason is required: it goes into the audit log.';
        error.hidden = false;
        reasonInput.focus();
        return;
      }
      const answer = { reason: why };
      fields.forEach((f, i) => (answer[f.name] = inputs[i].value.trim()));
      finish(answer);
    };
    const onCancel = (event) => {
      event?.preventDefault?.();
      finish(null);
    };
    ok.addEventListener('click', onOk);
    cancel.addEventListener('click', onCancel);
    dialog.addEventListener('cancel', onCancel);
    dialog.showModal();
    (inputs.find((_, i) => !fields[i].optional) ?? (reason === null ? ok : reasonInput)).focus();
  });
}

let seq = 0;

/** `pending` while an action runs; `ok` or `error` when it is done (each done result bumps data-seq). */
export function showResult(outcome, message) {
  const line = $('#result');
  line.hidden = false;
  line.dataset.outcome = outcome;
  line.textContent = message;
  if (outcome !== 'pending') line.dataset.seq = String(++seq);
}
