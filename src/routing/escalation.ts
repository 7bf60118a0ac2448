// Complexity escalation: should this request go to the role's stronger model with thinking
// on? The score fuses cheap, explainable signals — the caller's difficulty hint (e.g. from
// the intent classifier it runs anyway), the number of tools and the dialogue depth — and a
// deterministic keyword match acts as a floor. The answer says which signal decided.
import { lastUserText } from '../protocol/messages.js';
import type { ChatRequest } from '../protocol/types.js';
import type { RoleConfig } from '../config/index.js';

export interface EscalationSignals {
  /** 0–1 from the x-warden-difficulty header, or null when the caller sent none. */
  hint: number | null;
  keyword: string | null;
  tools: number;
  /** User turns in the dialogue. */
  depth: number;
}

export interface EscalationDecision {
  escalate: boolean;
  score: number;
  /** The signal that weighed most, e.g. `hint=0.90`, `keyword="prove"`, `tools=6`. */
  cause: string;
  signals: EscalationSignals;
}

const TOOLS_FOR_FULL_SCORE = 8;
const TURNS_FOR_FULL_SCORE = 12;

export function readSignals(request: ChatRequest, difficultyHeader: string | undefined, keywords: readonly string[]): EscalationSignals {
  const parsed = difficultyHeader === undefined ? NaN : Number(difficultyHeader);
  const hint = Number.isFinite(parsed) ? Math.min(1, Math.max(0, parsed)) : null;
  let depth = 0;
  for (const m of request.messages) if (m.role === 'user') depth++;
  const text = lastUserText(request.messages).toLowerCase();
  const keyword = keywords.find((k) => containsKeyword(text, k.toLowerCase())) ?? null;
  return { hint, keyword, tools: Array.isArray(request.tools) ? request.tools.length : 0, depth };
}

/** Letters of scripts written without spaces between words: there a keyword is any substring. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * Whether `keyword` occurs in `text` as a word or phrase: where the keyword begins or ends
 * with a letter of a spaced script, the text must not go on with a letter there ("prove" is
 * not found in "improve" or "approve"); in Chinese, Japanese or Thai any occurrence counts.
 */
export function containsKeyword(text: string, keyword: string): boolean {
  if (keyword === '') return false;
  const first = keyword[0]!;
  const last = keyword[keyword.length - 1]!;
  const checkBefore = WORD_CHAR.test(first) && !UNSPACED.test(first);
  const checkAfter = WORD_CHAR.test(last) && !UNSPACED.test(last);
  for (let at = text.indexOf(keyword); at !== -1; at = text.indexOf(keyword, at + 1)) {
    if (checkBefore && at > 0 && WORD_CHAR.test(text[at - 1]!)) continue;
    const end = at + keyword.length;
    if (checkAfter && end < text.length && WORD_CHAR.test(text[end]!)) continue;
    return true;
  }
  return false;
}

export function decideEscalation(signals: EscalationSignals, escalation: NonNullable<RoleConfig['escalation']>): EscalationDecision {
  // Noisy-OR: each signal can only raise the score, and a confident hint stands on its own
  // (a hint of 0.9 means 0.9). Structure alone (tools, depth) tops out at 0.75.
  const parts: Array<[string, number]> = [
    [`hint=${signals.hint?.toFixed(2)}`, signals.hint ?? 0],
    [`tools=${signals.tools}`, 0.5 * Math.min(1, signals.tools / TOOLS_FOR_FULL_SCORE)],
    [`depth=${signals.depth}`, 0.5 * Math.min(1, Math.max(0, signals.depth - 1) / TURNS_FOR_FULL_SCORE)],
  ];
  let score = 1 - parts.reduce((rest, [, v]) => rest * (1 - v), 1);
  let cause = parts.reduce((best, part) => (part[1] > best[1] ? part : best), ['none', 0] as [string, number])[0];
  if (signals.keyword !== null && escalation.keywordFloor > score) {
    score = escalation.keywordFloor;
    cause = `keyword=${JSON.stringify(signals.keyword)}`;
  }
  score = Math.round(score * 1000) / 1000;
  return { escalate: score >= escalation.threshold, score, cause, signals };
}
