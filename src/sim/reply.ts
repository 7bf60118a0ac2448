// What a simulated provider answers: a pure function of the scenario seed, the provider, the
// model, the request's seed (or its messages), the reply language and the fault. Streaming
// and non-streaming share it, so both carry exactly the same text.
import type { ChatRequest } from '../protocol/types.js';
import { brokenJson, misdecode, mojibake, strayPrefix } from './corrupt.js';
import { factAnswer, matchFact } from './facts.js';
import type { FaultName } from './faults.js';
import { requiredOf, valueFor, type ValueHints } from './json-values.js';
import { neighbourOf, type Language } from './language.js';
import { sliceEvery, splitPieces } from './pieces.js';
import { hash, mulberry32, pick, type Random } from './rng.js';
import { REFUSALS, SENTENCES, sentenceSeparator } from './sentences.js';

export interface ReplyInput {
  scenarioSeed: number;
  provider: string;
  model: string;
  /** `seed:<n>` when the request has a seed, else a hash of its messages. */
  key: string;
  language: Language;
  /** The last user message, matched against the fact questions. */
  prompt: string;
  fault: FaultName | null;
  replyTokens: number;
  maxTokens?: number;
  responseFormat?: ChatRequest['response_format'];
  /** A tool the request forces (`tool_choice` required or named). */
  tool?: { name: string; parameters: unknown };
}

export type FinishReason = 'stop' | 'length' | 'content_filter' | 'tool_calls';

export interface Reply {
  content: string | null;
  toolCall?: { id: string; name: string; arguments: string };
  /** Content pieces, or tool-call argument pieces: one stream chunk and one token each. */
  pieces: string[];
  finishReason: FinishReason;
  /** The fault as it shows in the reply; null when it had nothing to act on. */
  fault: FaultName | null;
}

/** Faults that change the content; the others (HTTP-level) keep the clean reply to cut from. */
const CONTENT_FAULTS: ReadonlySet<FaultName> = new Set([
  'prefix', 'drift', 'brokenJson', 'refusal', 'contentFilter', 'empty', 'mojibake', 'repetition', 'wrongFact',
]);

export function composeReply(input: ReplyInput): Reply {
  const random = mulberry32(hash(input.scenarioSeed, input.provider, input.model, input.key, input.language));
  const fault = input.fault;
  const contentFault = fault !== null && CONTENT_FAULTS.has(fault) ? fault : null;

  if (contentFault === 'refusal') return finish(input, REFUSALS[input.language], 'stop', fault);
  if (contentFault === 'empty') return finish(input, '', 'stop', fault);
  if (input.tool) return contentFault === 'contentFilter' ? filtered([], fault) : toolReply(input, random, fault);
  if (contentFault === 'repetition') return repetition(input, random);

  const body = bodyFor(input, random, contentFault);
  if (contentFault === 'prefix') return finish(input, strayPrefix(random) + body.text, 'stop', fault);
  if (contentFault === 'contentFilter') {
    const pieces = splitPieces(body.text);
    return filtered(random() < 0.5 ? [] : pieces.slice(0, pieces.length >> 1), fault);
  }
  return finish(input, body.text, 'stop', contentFault === null ? fault : body.applied);
}

/** A reply the provider's filter stopped: nothing, or the part written before it tripped. */
function filtered(pieces: string[], fault: FaultName | null): Reply {
  return { content: pieces.join(''), pieces, finishReason: 'content_filter', fault };
}

interface Body {
  text: string;
  /** The content fault this body already carries, if it could carry it. */
  applied: FaultName | null;
}

function bodyFor(input: ReplyInput, random: Random, fault: FaultName | null): Body {
  const fact = matchFact(input.prompt);
  const wrong = fault === 'wrongFact' && fact !== undefined;
  const answer = fact ? factAnswer(fact, input.language, wrong) : undefined;
  const format = input.responseFormat?.type;
  const sentences = pickSentences(input, random, fault === 'drift' ? 4 : 1);
  const separator = sentenceSeparator(input.language);

  if (format === 'json_object' || format === 'json_schema') {
    const schema = format === 'json_schema' ? input.responseFormat?.json_schema?.schema : undefined;
    const hints: ValueHints = { sentence: sentences[0] ?? '', language: input.language, answer, country: fact?.country };
    const value = objectValue(schema, hints, fact !== undefined && fact.country !== undefined);
    if (fault === 'brokenJson') return { text: brokenJson(value, requiredOf(schema), random), applied: 'brokenJson' };
    const json = JSON.stringify(value);
    if (fault === 'mojibake') return misdecoded(json);
    return { text: json, applied: wrong ? 'wrongFact' : null };
  }
  if (answer !== undefined) {
    if (fault === 'mojibake') return misdecoded(answer);
    return { text: answer, applied: wrong ? 'wrongFact' : null };
  }
  if (fault === 'drift') {
    const foreign = SENTENCES[neighbourOf(input.language)];
    const mixed = sentences.map((s, i) => (i % 2 === 1 ? pick(foreign, random) : s));
    return { text: mixed.join(separator), applied: 'drift' };
  }
  if (fault === 'mojibake') return { text: mojibake(sentences, separator), applied: 'mojibake' };
  return { text: sentences.join(separator), applied: null };
}

function objectValue(schema: unknown, hints: ValueHints, capitalQuestion: boolean): Record<string, unknown> {
  if (schema !== undefined) {
    const value = valueFor(schema, hints);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : { value };
  }
  if (capitalQuestion) return { city: hints.answer, country: hints.country };
  return hints.answer !== undefined ? { answer: hints.answer } : { reply: hints.sentence };
}

function misdecoded(text: string): Body {
  const damaged = misdecode(text);
  return { text: damaged, applied: damaged === text ? null : 'mojibake' };
}

/** Distinct sentences from the language's bank until the reply reaches its usual length. */
function pickSentences(input: ReplyInput, random: Random, atLeast: number): string[] {
  const bank = SENTENCES[input.language];
  const order = bank.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  const chosen: string[] = [];
  let tokens = 0;
  for (let i = 0; chosen.length < atLeast || tokens < input.replyTokens; i++) {
    const sentence = bank[order[i % order.length] as number] as string;
    chosen.push(sentence);
    tokens += splitPieces(sentence).length;
  }
  return chosen;
}

/** Runaway generation: one sentence over and over until the length limit. */
function repetition(input: ReplyInput, random: Random): Reply {
  const limit = input.maxTokens ?? Math.max(256, input.replyTokens * 6);
  const sentence = pick(SENTENCES[input.language], random);
  const unit = splitPieces(sentence + sentenceSeparator(input.language));
  const pieces: string[] = [];
  while (pieces.length < limit) pieces.push(...unit);
  pieces.length = limit;
  return { content: pieces.join(''), pieces, finishReason: 'length', fault: 'repetition' };
}

function toolReply(input: ReplyInput, random: Random, fault: FaultName | null): Reply {
  const tool = input.tool as NonNullable<ReplyInput['tool']>;
  const hints: ValueHints = { sentence: pick(SENTENCES[input.language], random), language: input.language };
  const args = JSON.stringify(valueFor(tool.parameters ?? { type: 'object' }, hints));
  let pieces = sliceEvery(args, 8);
  let finishReason: FinishReason = 'tool_calls';
  if (input.maxTokens !== undefined && pieces.length > input.maxTokens) {
    pieces = pieces.slice(0, input.maxTokens);
    finishReason = 'length';
  }
  const id = `call_${hash(input.key, input.provider, tool.name).toString(36)}`;
  // Content faults have no text to act on here: the call goes out clean.
  const visible = fault !== null && CONTENT_FAULTS.has(fault) ? null : fault;
  return { content: null, toolCall: { id, name: tool.name, arguments: pieces.join('') }, pieces, finishReason, fault: visible };
}

function finish(input: ReplyInput, text: string, reason: FinishReason, fault: FaultName | null): Reply {
  const pieces = splitPieces(text);
  if (input.maxTokens !== undefined && pieces.length > input.maxTokens) {
    const kept = pieces.slice(0, input.maxTokens);
    return { content: kept.join(''), pieces: kept, finishReason: 'length', fault };
  }
  return { content: text, pieces, finishReason: reason, fault };
}
