// Reasoning on or off "in the provider's own way": the config may give body fragments per
// provider (vLLM's `chat_template_kwargs: {enable_thinking: false}`, DeepSeek's
// `thinking: {type: disabled}`, …); and answers of a thinking-off role lose any reasoning
// text a provider sent anyway, so none reaches a parsed result.
import type { ChatCompletion, ChatRequest } from '../protocol/types.js';
import type { AttemptTarget } from './adapter.js';

export function applySwitch(body: ChatRequest, target: AttemptTarget): void {
  if (target.thinking === 'auto') return;
  const fragment = target.thinkingSwitch?.[target.thinking];
  if (fragment) Object.assign(body, fragment);
}

const REASONING_FIELDS = ['reasoning', 'reasoning_content', 'reasoning_details', 'thinking'] as const;
const THINK_BLOCK = /^\s*<think>[\s\S]*?<\/think>\s*/;

/** Removes reasoning from a completion in place; true when something was removed. */
export function stripReasoning(completion: ChatCompletion): boolean {
  let changed = false;
  for (const choice of completion.choices ?? []) {
    const message = choice.message as Record<string, unknown> | undefined;
    if (!message) continue;
    for (const field of REASONING_FIELDS) {
      if (field in message) {
        delete message[field];
        changed = true;
      }
    }
    if (typeof message.content === 'string' && THINK_BLOCK.test(message.content)) {
      message.content = message.content.replace(THINK_BLOCK, '');
      changed = true;
    }
  }
  return changed;
}

/** Removes reasoning from a streamed chunk's deltas in place; true when something was removed. */
export function stripReasoningDelta(chunk: { choices?: Array<{ delta?: Record<string, unknown> }> }): boolean {
  let changed = false;
  for (const choice of chunk.choices ?? []) {
    const delta = choice.delta;
    if (!delta) continue;
    for (const field of REASONING_FIELDS) {
      if (field in delta) {
        delete delta[field];
        changed = true;
      }
    }
  }
  return changed;
}

/**
 * Whether a streamed chunk's deltas carry reasoning (DeepSeek's `reasoning_content`,
 * OpenRouter's `reasoning` / `reasoning_details`): a thinking model at work, before its answer.
 */
export function carriesReasoning(chunk: { choices?: Array<{ delta?: Record<string, unknown> }> }): boolean {
  for (const choice of chunk.choices ?? []) {
    const delta = choice.delta;
    if (!delta) continue;
    for (const field of REASONING_FIELDS) {
      const value = delta[field];
      if ((typeof value === 'string' || Array.isArray(value)) && value.length > 0) return true;
    }
  }
  return false;
}
