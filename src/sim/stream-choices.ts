// The events of a simulated stream, choice by choice. With `n` > 1 the choices' deltas
// interleave as OpenAI sends them: each event carries one choice, named by its `index`; round k
// sends the k-th piece of every choice that has one, and a choice ends with its own finish reason.
import type { Reply } from './reply.js';
import type { ChunkWriter } from './wire.js';

export class StreamChoices {
  /** Rounds of pieces: the longest choice's piece count. */
  readonly rounds: number;

  constructor(
    private readonly chunks: ChunkWriter,
    private readonly choices: readonly Reply[],
  ) {
    let rounds = 0;
    for (const reply of choices) rounds = Math.max(rounds, reply.pieces.length);
    this.rounds = rounds;
  }

  /** Each choice's role event, and its reasoning when the provider thinks aloud. */
  opening(reasoning: boolean): string {
    let out = '';
    for (let i = 0; i < this.choices.length; i++) out += this.chunks.role(this.choices[i]!, i) + (reasoning ? this.chunks.reasoning(i) : '');
    return out;
  }

  round(k: number): string {
    const { chunks, choices } = this;
    if (choices.length === 1) return chunks.piece(choices[0]!, k);
    let out = '';
    for (let i = 0; i < choices.length; i++) {
      const pieces = choices[i]!.pieces.length;
      if (k >= pieces) continue;
      out += chunks.piece(choices[i]!, k, i);
      // A choice shorter than the longest ends as its last piece goes, not with the stream.
      if (k === pieces - 1 && pieces < this.rounds) out += chunks.finish(choices[i]!, i);
    }
    return out;
  }

  /** The finish events of the choices still open after the last round. */
  finish(): string {
    let out = '';
    for (let i = 0; i < this.choices.length; i++) {
      const pieces = this.choices[i]!.pieces.length;
      if (pieces === this.rounds || pieces === 0) out += this.chunks.finish(this.choices[i]!, i);
    }
    return out;
  }
}
