// The one shape every quality check has (STYLE.md §11): a reply and what was expected of
// it in, a verdict with a stable reason code and short, quotable evidence out.

/** What an upstream answered, as far as the quality gate cares. */
export interface Reply {
  text: string;
  /** `stop`, `length`, `content_filter`, `tool_calls`, … as the provider sent it; null when none came. */
  finishReason: string | null;
  /**
   * The answer calls a tool (`tool_calls`, or the legacy `function_call`), whatever its finish
   * reason: providers differ (`tool_calls`, `stop`, `function_call`), the call is the answer.
   */
  toolCall?: boolean;
  /** `text` is the provider's own `refusal` field (structured outputs), not content. */
  refused?: boolean;
  /** The first characters of a stream still coming (the hold-back window): rules about how a reply ends do not apply. */
  partial?: boolean;
  /** Streams only: measured by the caller, never by a detector (detectors read no clock). */
  timing?: { firstTokenMs?: number; totalMs?: number };
}

/** What the caller expects of the reply; each check reads only the fields it needs. */
export interface Expectation {
  /** One of the 17 product languages (see `LANGUAGES`), e.g. `pt`, `zh`. */
  language?: string;
  /** A JSON Schema object; compiled once per object and cached. */
  schema?: object;
  /** Strict roles want bare JSON: prose or a code fence around it is a failure, named as such. */
  strictJson?: boolean;
  /** Accepted answers for `fact`, compared after normalisation ("巴黎" and "Paris" both). */
  expected?: readonly string[];
  /** Minimum characters of content for `minlen`. */
  minLength?: number;
}

export type VerdictKind = 'pass' | 'fail' | 'inconclusive';

export interface Verdict {
  check: string;
  verdict: VerdictKind;
  /** Stable machine code: `ok`, `wrong_language`, `mixed_language`, `json_wrapped_in_prose`, `missing_field`, … */
  reason: string;
  /** One human sentence, when the code alone does not say enough. */
  detail?: string;
  /** Short and quotable: the offending span, the detected languages with scores. */
  evidence?: Record<string, unknown>;
}

export type Detector = (reply: Reply, expectation: Expectation) => Verdict;

/** The names the config uses (`roles.*.checks`); extend, never rename. */
export const CHECK_NAMES = ['nonempty', 'refusal', 'schema', 'language', 'encoding', 'repetition', 'prefix', 'fact', 'minlen'] as const;
export type CheckName = (typeof CHECK_NAMES)[number];
