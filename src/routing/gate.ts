// The quality gate of a role: its checks, run on every answer before the client sees it.
// A failed check is a failure like a 5xx (STYLE §3) and sends the request to a fallback.
import type { RoleConfig } from '../config/index.js';
import { runChecks, schemaProblem, type CheckName, type Expectation, type Reply, type Verdict } from '../quality/index.js';
import type { ChatChoice } from '../protocol/types.js';
import { isStructuredRole } from './thinking.js';

export interface GateResult {
  passed: boolean;
  /** The first failing verdict, which names the reason of the fallback. */
  failed: Verdict | null;
  verdicts: Verdict[];
  /** The index of the failing choice, when an answer with several was judged (streamed or not); else absent. */
  choice?: number;
}

/** Checks that mean something on the first characters of a stream (the hold-back window). */
const PARTIAL_CHECKS = new Set<CheckName>(['prefix', 'encoding', 'refusal', 'language']);

const PASSED: GateResult = { passed: true, failed: null, verdicts: [] };

export class QualityGate {
  readonly checks: readonly CheckName[];
  readonly partialChecks: readonly CheckName[];
  /**
   * Why the role's JSON Schema is not applied, or null. The config refuses a schema that does
   * not compile, so only a config that skipped validation gets here; the schema check then asks
   * for JSON alone: a fault of the operator's, not of any route, must not send every reply to a
   * fallback (blaming the routes) nor throw at the client as a 500. The role runtime logs it.
   */
  readonly schemaProblem: string | null;
  readonly #base: Expectation;

  constructor(name: string, role: RoleConfig) {
    this.checks = role.checks;
    this.partialChecks = role.checks.filter((c) => PARTIAL_CHECKS.has(c));
    this.schemaProblem = role.schema ? schemaProblem(role.schema) : null;
    this.#base = {
      schema: this.schemaProblem === null ? role.schema : undefined,
      strictJson: role.tier === 'strict' || isStructuredRole(name, role),
      expected: role.expect,
      minLength: role.minLength,
    };
  }

  get active(): boolean {
    return this.checks.length > 0;
  }

  judge(reply: Reply, language: string | null): GateResult {
    if (reply.toolCall || reply.finishReason === 'tool_calls' || reply.finishReason === 'function_call') {
      // The call is the answer. Text beside it ("Let me look that up.") is only a preface: the
      // checks of an answer's whole (nonempty, minlen, schema, …) would fail a correct call on
      // it, so only those that judge a start do, as on a stream's hold-back window.
      if (reply.text === '') return PASSED;
      return this.#run(this.partialChecks, { text: reply.text, finishReason: reply.finishReason, partial: true }, language);
    }
    return this.#run(this.checks, reply, language);
  }

  /**
   * A non-streamed answer: every choice is judged, and the answer fails with the first choice
   * that fails (its index named), so one broken sample of `n` cannot hide behind a good first.
   */
  judgeChoices(choices: readonly ChatChoice[], language: string | null): GateResult {
    if (choices.length <= 1) return this.judge(replyOf(choices[0]), language);
    let first: GateResult | null = null;
    for (let i = 0; i < choices.length; i++) {
      const choice = choices[i]!;
      const result = this.judge(replyOf(choice), language);
      if (!result.passed) return { ...result, choice: typeof choice.index === 'number' ? choice.index : i };
      first ??= result;
    }
    return first!;
  }

  /** The hold-back window of a stream: only checks that a partial answer can fail fairly. */
  judgeStart(text: string, language: string | null, refused = false): GateResult {
    return this.#run(this.partialChecks, { text, finishReason: null, partial: true, refused }, language);
  }

  #run(checks: readonly CheckName[], reply: Reply, language: string | null): GateResult {
    if (checks.length === 0) return PASSED;
    const verdicts = runChecks(checks, reply, language ? { ...this.#base, language } : this.#base);
    const failed = verdicts.find((v) => v.verdict === 'fail') ?? null;
    return { passed: failed === null, failed, verdicts };
  }
}

/**
 * What the gate judges of a non-streamed answer's choice: its content, or the provider's
 * `refusal` field when it declined (structured outputs: content null) — a refusal, not an
 * empty answer; and whether it calls a tool.
 */
export function replyOf(choice: ChatChoice | undefined): Reply {
  const message = choice?.message;
  const finishReason = choice?.finish_reason ?? null;
  const toolCall = (Array.isArray(message?.tool_calls) && message.tool_calls.length > 0) || (message?.function_call != null && typeof message.function_call === 'object');
  if (typeof message?.content === 'string' && message.content !== '') return { text: message.content, finishReason, toolCall };
  if (typeof message?.refusal === 'string' && message.refusal !== '') return { text: message.refusal, finishReason, toolCall, refused: true };
  return { text: '', finishReason, toolCall };
}
