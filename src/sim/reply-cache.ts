// Replies are pure functions of their input, so each distinct input is composed once and
// reused: at benchmark rates the fleet must not rebuild the same text ten thousand times.
import { matchFact } from './facts.js';
import { composeReply, type Reply, type ReplyInput } from './reply.js';

export class ReplyCache {
  readonly #entries = new Map<string, Reply>();

  constructor(private readonly limit = 20_000) {}

  get(input: ReplyInput): Reply {
    const key = cacheKey(input);
    let reply = this.#entries.get(key);
    if (!reply) {
      // Crude bound: a benchmark with unique prompts must not grow memory without end.
      if (this.#entries.size >= this.limit) this.#entries.clear();
      reply = composeReply(input);
      this.#entries.set(key, reply);
    }
    return reply;
  }
}

function cacheKey(input: ReplyInput): string {
  const format = input.responseFormat ? JSON.stringify(input.responseFormat) : '';
  const tool = input.tool ? JSON.stringify(input.tool) : '';
  const fact = matchFact(input.prompt)?.id ?? '';
  return `${input.provider}\u0000${input.model}\u0000${input.key}\u0000${input.language}\u0000${input.fault}\u0000${input.maxTokens}\u0000${fact}\u0000${format}\u0000${tool}`;
}
