// The Roles panel's actions, each confirmed in the dialog with a required reason: replace the
// model chain, start, advance or roll back a rollout, drop a role's overlay entry. The page
// only splits what was typed; the gateway validates it as it validates the YAML, and a refusal
// names the field.
import { api } from './api.js';
import { confirmAction } from './dialog.js';
import { count, percent } from './format.js';

const REASON = { required: true, placeholder: 'why: it goes into the audit log' };

/** `perform(label, fn)` runs the call and shows its result (app.js). */
export async function roleAction(action, role, perform) {
  const run = ACTIONS[action];
  if (run) await run(role, perform);
}

const ACTIONS = {
  async chain(role, perform) {
    const answer = await confirmAction({
      title: `Change the model chain of ${role.name}?`,
      text: 'The models in order, separated by commas: the first serves, the others are its fallbacks. The next request uses the new chain; it stays in the runtime overlay (across restarts) until dropped.',
      confirmLabel: 'Change chain',
      fields: [{ name: 'models', label: 'Model chain', value: role.models.join(', ') }],
      reason: REASON,
    });
    if (!answer) return;
    await perform(`Change ${role.name}`, async () => {
      const result = await api('PATCH', rolePath(role.name), { models: list(answer.models), reason: answer.reason });
      return `Changed ${role.name}: ${changed(result)}; it now serves ${result.effective.models.join(' → ')}`;
    });
  },

  async rollout(role, perform) {
    const answer = await confirmAction({
      title: `Start a rollout on ${role.name}?`,
      text: `The candidate takes this share of ${role.name}'s primary traffic and ${role.models[0]} the rest (sticky per x-warden-sticky key); a failing candidate falls back along the chain.`,
      confirmLabel: 'Start rollout',
      fields: [
        { name: 'candidate', label: 'Candidate model', list: 'model-names', placeholder: 'a configured model' },
        { name: 'weight', label: 'Candidate weight (percent)', value: '10', inputmode: 'decimal' },
      ],
      reason: REASON,
    });
    if (!answer) return;
    await perform(`Rollout on ${role.name}`, async () => {
      const result = await api('POST', rolePath(role.name, '/rollout'), { candidate: answer.candidate, weight: number(answer.weight), reason: answer.reason });
      return `Started a rollout on ${role.name}: ${split(result.effective)}`;
    });
  },

  async advance(role, perform) {
    const rollout = role.rollout;
    const byWeight = rollout.candidate !== null;
    const current = rollout.arms[0]?.weight ?? 0;
    const answer = await confirmAction({
      title: `Advance the rollout on ${role.name}?`,
      text: `${figures(rollout)}. ${byWeight ? `100 promotes ${rollout.candidate}: it leads the chain and the rollout ends.` : 'One model with all the weight is promoted and the rollout ends.'}`,
      confirmLabel: 'Advance',
      fields: [
        byWeight
          ? { name: 'weight', label: `New weight of ${rollout.candidate} (percent)`, value: String(nextStep(current, rollout.auto?.steps)), inputmode: 'decimal' }
          : { name: 'weights', label: 'New weights (model=share, …)', value: rollout.arms.map((a) => `${a.model}=${Math.round(a.weight)}`).join(', ') },
      ],
      reason: REASON,
    });
    if (!answer) return;
    await perform(`Advance ${role.name}`, async () => {
      const target = byWeight ? { weight: number(answer.weight) } : { weights: weights(answer.weights) };
      const result = await api('POST', rolePath(role.name, '/rollout/advance'), { ...target, reason: answer.reason });
      return result.effective.rollout ? `Advanced ${role.name}: ${split(result.effective)}` : `Promoted on ${role.name}: it now serves ${result.effective.models.join(' → ')}`;
    });
  },

  async rollback(role, perform) {
    const answer = await confirmAction({
      title: `Roll back the rollout on ${role.name}?`,
      text: `${figures(role.rollout)}. The rollout ends and the role is restored exactly as it was before it began.`,
      confirmLabel: 'Roll back',
      reason: REASON,
    });
    if (!answer) return;
    await perform(`Roll back ${role.name}`, async () => {
      const result = await api('POST', rolePath(role.name, '/rollout/rollback'), { reason: answer.reason });
      return `Rolled back ${role.name}: it now serves ${result.effective.models.join(' → ')}`;
    });
  },

  async drop(role, perform) {
    const answer = await confirmAction({
      title: `Drop the overlay of ${role.name}?`,
      text: role.added ? `${role.name} exists only in the overlay: dropping it removes the role.` : `The YAML's ${role.name} serves again from the next request${role.rollout ? ', and its rollout ends' : ''}.`,
      confirmLabel: 'Drop overlay',
      reason: REASON,
    });
    if (!answer) return;
    await perform(`Drop ${role.name}`, async () => {
      const result = await api('DELETE', `admin/roles/overlay?role=${encodeURIComponent(role.name)}`, { reason: answer.reason });
      if (result.dropped.length === 0) return `${role.name} had no overlay entry: nothing dropped`;
      const after = (result.diff[role.name] ?? []).find((c) => c.path === 'models')?.after;
      return `Dropped the overlay of ${role.name}${after ? `: it now serves ${after.join(' → ')}` : role.added ? ': the role is gone' : ''}`;
    });
  },
};

const rolePath = (name, rest = '') => `admin/roles/${encodeURIComponent(name)}${rest}`;

/** `a, b,, c` → `['a', 'b', 'c']`. */
const list = (text) => text.split(',').map((s) => s.trim()).filter(Boolean);

/** A number when it reads as one; else the text as typed, for the gateway to refuse by name. */
function number(text) {
  const n = Number(text);
  return text !== '' && Number.isFinite(n) ? n : text;
}

/** `a=50, b=50` → `{a: 50, b: 50}`. */
function weights(text) {
  return Object.fromEntries(list(text).map((pair) => {
    const at = pair.indexOf('=');
    return at < 0 ? [pair, ''] : [pair.slice(0, at).trim(), number(pair.slice(at + 1).trim())];
  }));
}

function nextStep(weight, steps = [10, 25, 50, 100]) {
  return steps.find((s) => s > weight) ?? 100;
}

function changed(result) {
  return result.diff.length ? result.diff.map((c) => c.path).join(', ') : 'no change';
}

function split(effective) {
  const r = effective.rollout;
  if (!r) return `no split; it serves ${effective.models.join(' → ')}`;
  if (r.candidate !== undefined) return `${r.candidate} takes ${r.weight}%, ${effective.models[0]} ${100 - r.weight}%`;
  return Object.entries(r.weights).map(([m, w]) => `${m} ${w}`).join(' · ');
}

/** The arms side by side in one sentence, for the dialog. */
function figures(rollout) {
  return rollout.arms.map((a) => `${a.model} at ${Math.round(a.weight)}%: ${count(a.requests)} requests, fallback ${percent(a.fallbackRate)}, quality failures ${percent(a.qualityFailureRate)}`).join('; ');
}
