// What a stream's gate judges, gathered event by event: each choice's text (its content, or its
// `refusal` when a structured answer declined), finish reason and whether it calls a tool. This
// object is choice 0; with `n` > 1 the choices' deltas interleave and each other choice gets a
// state of its own, made when a delta first names it — a one-choice stream never makes one.
import type { ChatChunkChoice } from '../protocol/types.js';
import type { Reply } from '../quality/index.js';
import type { GateResult } from '../routing/gate.js';

export type JudgeWhole = (reply: Reply) => GateResult;
export type JudgeStart = (text: string, refused: boolean) => GateResult;

export class StreamAnswer {
  text = '';
  finishReason: string | null = null;
  /** A tool-call delta came: the call is the answer, whatever the finish reason says. */
  #toolCall = false;
  /** The text came as `delta.refusal` (structured outputs declined), not as content. */
  #refused = false;
  /** The length of the text the whole gate passed before the commit; -1 when it did not judge it. */
  #judgedChars = -1;
  /** The other choices of `n` > 1, by index; null until a delta names one. */
  #others: Map<number, StreamAnswer> | null = null;

  /** Reads one choice's delta; true when it carries some of the answer (text, a tool call, a finish). */
  read(choice: ChatChunkChoice): boolean {
    const index = choice.index;
    // Each choice's pieces go to its own text: interleaved, they are not one answer (two JSON
    // objects spliced are no JSON). An index that is no choice's is relayed, never judged.
    const answer = !index ? this : Number.isInteger(index) && index > 0 ? this.#other(index) : null;
    const delta = choice.delta;
    let text = delta?.content;
    const refusal = !text && typeof delta?.refusal === 'string' && delta.refusal !== '';
    if (refusal) text = delta.refusal as string;
    const calls = !!(delta?.tool_calls?.length || delta?.function_call);
    if (answer !== null) {
      if (text) answer.text += text;
      if (refusal) answer.#refused = true;
      if (calls) answer.#toolCall = true;
      if (choice.finish_reason != null) answer.finishReason = choice.finish_reason;
    }
    return !!text || calls || choice.finish_reason != null;
  }

  reply(): Reply {
    return { text: this.text, finishReason: this.finishReason, toolCall: this.#toolCall, refused: this.#refused };
  }

  /**
   * The hold-back window is full: each of the `n` choices has `chars` of its answer, or its end.
   * A stream whose choice 0 fills it with no other choice in sight comes from an upstream that
   * ignores `n` (many answer one choice whatever is asked; those that honour it interleave the
   * choices from their first events): waiting for choices that never come would hold every
   * such answer for the window's whole `ms`.
   */
  holds(chars: number, n: number): boolean {
    if (!this.#holds(chars)) return false;
    if (this.#others === null) return true;
    for (let i = 1; i < n; i++) {
      const other = this.#others?.get(i);
      if (other === undefined || !other.#holds(chars)) return false;
    }
    return true;
  }

  #holds(chars: number): boolean {
    return this.text.length >= chars || this.finishReason !== null;
  }

  /**
   * The gate's verdict on what was held, choice by choice: the whole gate when the choice's end
   * (its finish reason, or the stream's [DONE]) was read, else the start checks on its text.
   * With several choices, the first that fails, its index named, as for a non-streamed answer.
   */
  judgeHeld(whole: JudgeWhole | null, start: JudgeStart | null, done: boolean): GateResult | null {
    if (this.#others === null) return this.#judgeHeld(whole, start, done);
    return this.#firstFailing((answer) => answer.#judgeHeld(whole, start, done));
  }

  #judgeHeld(whole: JudgeWhole | null, start: JudgeStart | null, done: boolean): GateResult | null {
    if (whole && (this.finishReason !== null || done)) {
      this.#judgedChars = this.text.length;
      return whole(this.reply());
    }
    return start && this.text ? start(this.text, this.#refused) : null;
  }

  /** After the stream: the whole gate on every choice it did not pass before the commit; null when none was left to judge. */
  judgeRest(whole: JudgeWhole): GateResult | null {
    if (this.#others === null) return this.#judgeRest(whole);
    return this.#firstFailing((answer) => answer.#judgeRest(whole));
  }

  #judgeRest(whole: JudgeWhole): GateResult | null {
    return this.#judgedChars === this.text.length ? null : whole(this.reply());
  }

  /** With several choices: choice 0's verdict, or the first failing choice's, with its index. */
  #firstFailing(judge: (answer: StreamAnswer) => GateResult | null): GateResult | null {
    const own = judge(this);
    if (own && !own.passed) return { ...own, choice: 0 };
    let verdict = own;
    for (const index of [...this.#others!.keys()].sort((a, b) => a - b)) {
      const result = judge(this.#others!.get(index)!);
      if (result && !result.passed) return { ...result, choice: index };
      verdict ??= result;
    }
    return verdict;
  }

  #other(index: number): StreamAnswer {
    this.#others ??= new Map();
    let answer = this.#others.get(index);
    if (answer === undefined) this.#others.set(index, (answer = new StreamAnswer()));
    return answer;
  }
}
