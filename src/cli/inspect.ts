// `warden inspect --checks LIST [--language xx] [--schema FILE] [--expect TEXT] [--min-length N] [--json]`:
// runs quality detectors on a reply read from stdin. Exit 0 pass, 2 fail, 3 inconclusive
// (fail wins over inconclusive); a bad flag is a usage error, named.
import { readFileSync } from 'node:fs';
import { CHECK_NAMES, LANGUAGES, assertSchema, isCheckName, runChecks, warmUp, worstVerdict, type Expectation, type Verdict } from '../quality/index.js';

export interface InspectOptions {
  checks?: string;
  language?: string;
  schema?: string;
  expect?: string[];
  /** minlen's minimum, in characters of content. */
  minLength?: string;
  json?: boolean;
}

export const INSPECT_EXIT = { pass: 0, fail: 2, inconclusive: 3 } as const;

/** A flag the user got wrong: the CLI prints the message with the usage and exits 64. */
export class InspectUsageError extends Error {}

/** The input cannot be judged as a reply: the CLI prints the message and exits 1. */
export class InspectInputError extends Error {}

export async function runInspect(options: InspectOptions, stdin: NodeJS.ReadableStream = process.stdin): Promise<number> {
  const names = parseChecks(options.checks);
  const expectation = buildExpectation(options, names);
  const text = stripOneNewline(await readAll(stdin, INSPECT_MAX_BYTES));
  if (names.includes('language')) warmUp();
  const verdicts = runChecks(names, { text, finishReason: 'stop' }, expectation);
  const worst = worstVerdict(verdicts);
  process.stdout.write(options.json ? `${JSON.stringify({ verdict: worst, checks: verdicts })}\n` : render(verdicts, worst));
  return INSPECT_EXIT[worst];
}

function parseChecks(list: string | undefined): string[] {
  if (!list) throw new InspectUsageError(`inspect needs --checks LIST (any of: ${CHECK_NAMES.join(', ')})`);
  const names = list.split(',').map((n) => n.trim()).filter((n) => n.length > 0);
  const unknown = names.filter((n) => !isCheckName(n));
  if (unknown.length > 0) throw new InspectUsageError(`unknown check ${unknown.map((n) => `"${n}"`).join(', ')} (known: ${CHECK_NAMES.join(', ')})`);
  if (names.length === 0) throw new InspectUsageError('--checks is empty');
  return names;
}

function buildExpectation(options: InspectOptions, names: readonly string[]): Expectation {
  const expectation: Expectation = {};
  if (options.language !== undefined) {
    const language = options.language.toLowerCase();
    if (!(LANGUAGES as readonly string[]).includes(language)) throw new InspectUsageError(`--language must be one of ${LANGUAGES.join(', ')}, got "${options.language}"`);
    expectation.language = language;
  }
  if (options.schema !== undefined) {
    expectation.schema = readSchema(options.schema);
    // The command line stands for a strict role: JSON wrapped in prose or a fence fails.
    expectation.strictJson = true;
  } else if (names.includes('schema')) {
    expectation.strictJson = true;
  }
  if (options.expect && options.expect.length > 0) expectation.expected = options.expect;
  if (options.minLength !== undefined) {
    const minimum = Number(options.minLength);
    if (!Number.isInteger(minimum) || minimum < 1) throw new InspectUsageError(`--min-length must be a whole number of characters from 1, got "${options.minLength}"`);
    expectation.minLength = minimum;
  }
  return expectation;
}

function readSchema(file: string): object {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new InspectUsageError(`--schema ${file}: ${(e as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new InspectUsageError(`--schema ${file}: a JSON Schema must be an object`);
  try {
    assertSchema(parsed);
  } catch (e) {
    throw new InspectUsageError(`--schema ${file}: ${(e as Error).message}`);
  }
  return parsed;
}

/** One reply is judged; a bigger input is a mistake (a log file, a dump), not a reply, and
 * reading it whole took seconds and gigabytes before the checks even began. */
export const INSPECT_MAX_BYTES = 16 * 1024 * 1024;

async function readAll(stream: NodeJS.ReadableStream, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > maxBytes) throw new InspectInputError(`stdin holds more than ${maxBytes / (1024 * 1024)} MiB; inspect judges one reply (pipe in the reply's text only)`);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `echo` and heredocs add one newline the reply never had. */
function stripOneNewline(text: string): string {
  return text.endsWith('\r\n') ? text.slice(0, -2) : text.endsWith('\n') ? text.slice(0, -1) : text;
}

function render(verdicts: readonly Verdict[], worst: string): string {
  const lines = verdicts.map((v) => {
    const head = `${v.verdict.padEnd(12)} ${v.check.padEnd(10)} ${v.reason}`;
    const detail = v.detail ? `  — ${v.detail}` : '';
    const evidence = v.evidence ? `\n${' '.repeat(13)}${JSON.stringify(v.evidence)}` : '';
    return head + detail + evidence;
  });
  return `${lines.join('\n')}\n${worst}\n`;
}
