// The confirmation every manual action asks for (an in-page dialog, so it can be read,
// filled in and clicked like the rest of the page), and the line that shows its result.
import { $ } from './dom.js';

/**
 * Opens the dialog; resolves with `{reason, ttl}` on Confirm, null on Cancel or Escape.
 * `reason`: null to hide the field, else `{required, value, placeholder}`; `ttl`: show the expiry field.
 */
export function confirmAction({ title, text, confirmLabel = 'Confirm', reason = null, ttl = false }) {
  const dialog = $('#confirm');
  const reasonInput = $('#confirm-reason');
  const ttlInput = $('#confirm-ttl');
  const error = $('#confirm-error');
  const ok = $('#confirm-ok');
  const cancel = $('#confirm-cancel');
  $('#confirm-title').textContent = title;
  $('#confirm-text').textContent = text;
  $('#reason-field').hidden = reason === null;
  reasonInput.value = reason?.value ?? '';
  reasonInput.placeholder = reason?.placeholder ?? '';
  $('#ttl-field').hidden = !ttl;
  ttlInput.value = '';
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
      finish({ reason: why, ttl: ttlInput.value.trim() });
    };
    const onCancel = (event) => {
      event?.preventDefault?.();
      finish(null);
    };
    ok.addEventListener('click', onOk);
    cancel.addEventListener('click', onCancel);
    dialog.addEventListener('cancel', onCancel);
    dialog.showModal();
    (reason === null ? ok : reasonInput).focus();
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
