// What a stream's gate judges, gathered event by event: the first choice's text (its content,
// or its `refusal` when a structured answer declined), finish reason and whether it calls a tool.
import type { ChatChunkChoice } from '../protocol/types.js';
import type { Reply } from '../quality/index.js';

export class StreamAnswer {
  text = '';
  finishReason: string | null = null;
  /** A tool-call delta came: the call is the answer, whatever the finish reason says. */
  #toolCall = false;
  /** The text came as `delta.refusal` (structured outputs declined), not as content. */
  #refused = false;

  /** Reads one choice's delta; true when it carries some of the answer (text, a tool call, a finish). */
  read(choice: ChatChunkChoice): boolean {
    const delta = choice.delta;
    let text = delta?.content;
    const refusal = !text && typeof delta?.refusal === 'string' && delta.refusal !== '';
    if (refusal) text = delta.refusal as string;
    const calls = !!(delta?.tool_calls?.length || delta?.function_call);
    // With `n` > 1 the choices' deltas interleave: the gate judges the first choice (a
    // non-streamed answer it judges choice by choice); the others' pieces are not spliced into its text.
    if (!choice.index) {
      if (text) this.text += text;
      if (refusal) this.#refused = true;
      if (calls) this.#toolCall = true;
      if (choice.finish_reason != null) this.finishReason = choice.finish_reason;
    }
    return !!text || calls || choice.finish_reason != null;
  }

  get refused(): boolean {
    return this.#refused;
  }

  reply(): Reply {
    return { text: this.text, finishReason: this.finishReason, toolCall: this.#toolCall, refused: this.#refused };
  }
}
