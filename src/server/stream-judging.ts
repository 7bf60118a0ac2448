// What a role's quality gate asks of its streams: the hold-back window and the two judgements
// (the held-back start, the whole answer). The same for every attempt of a request, so the
// execution builds it once, on its first streamed attempt.
import type { ChatRequest } from '../protocol/types.js';
import type { QualityGate } from '../routing/gate.js';
import type { JudgeStart, JudgeWhole } from './stream-answer.js';

export interface StreamJudging {
  /** Characters or milliseconds of answer to hold back for the gate; null commits on the first token. */
  holdBack: { chars: number; ms: number } | null;
  /** Judges the held-back start; a failed result rejects the attempt before the client sees it. */
  judgeStart: JudgeStart | null;
  /**
   * Every check of the role, for an answer read to its end before the commit (a failure rejects
   * it likewise), and after the stream for what went out unjudged (a failure is only recorded).
   * Set, the relay keeps the whole text for it.
   */
  judgeWhole: JudgeWhole | null;
  /** The request's `n`: the hold-back window holds until each choice has filled it. */
  choices: number;
}

/** OpenAI's largest `n`: a window never waits on more choices, whatever a client asks. */
const MAX_CHOICES = 128;

/** The choices a request asks for (`n`), as the hold-back window counts them. */
function choicesAsked(body: ChatRequest): number {
  const n = body.n;
  return typeof n === 'number' && Number.isInteger(n) && n > 1 ? Math.min(n, MAX_CHOICES) : 1;
}

export function streamJudging(gate: QualityGate | null, holdBack: StreamJudging['holdBack'], language: string | null, body: ChatRequest): StreamJudging {
  return {
    holdBack,
    judgeStart: gate && holdBack && gate.partialChecks.length > 0 ? (text, refused) => gate.judgeStart(text, language, refused) : null,
    judgeWhole: gate?.active ? (reply) => gate.judge(reply, language) : null,
    choices: choicesAsked(body),
  };
}
