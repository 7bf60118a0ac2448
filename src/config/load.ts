// Reads a YAML config: parse, resolve `${ENV}` references, validate, and report every
// problem at once with its path and line.
import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument, isNode, type Document } from 'yaml';
import type { z } from 'zod';
import { interpolate, type Environment } from './env.js';
import { ConfigError, formatPath, type ConfigIssue } from './errors.js';
import { configSchema, type WardenConfig } from './schema.js';

export function loadConfig(file: string, env: Environment = process.env): WardenConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(file, [{ path: '(file)', message: `cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}` }]);
  }
  return parseConfig(text, file, env);
}

export function parseConfig(text: string, source = '(config)', env: Environment = process.env): WardenConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      source,
      doc.errors.map((e) => ({ path: '(yaml)', message: e.message.split('\n')[0]!, line: e.linePos?.[0]?.line })),
    );
  }
  const issues: ConfigIssue[] = [];
  const raw = interpolate(doc.toJS() ?? {}, env, issues);
  const result = configSchema.safeParse(raw);
  if (!result.success) issues.push(...configIssues(result.error));
  if (issues.length > 0) throw new ConfigError(source, issues.map((i) => withLine(i, doc, lines)));
  return result.data!;
}

/**
 * Validates a config object (not text): a parsed config with some sections replaced, as the
 * runtime role overlay builds it. The same schema, cross-checks and path-named issues.
 */
export function validateConfig(input: unknown, source: string): WardenConfig {
  const result = configSchema.safeParse(input);
  if (!result.success) throw new ConfigError(source, configIssues(result.error));
  return result.data;
}

/** zod's issues as config issues: a path into the file and what was expected there. */
function configIssues(error: z.ZodError): ConfigIssue[] {
  return error.issues.map((issue) => {
    if (issue.code !== 'unrecognized_keys') return { path: formatPath(issue.path as (string | number)[]), segments: issue.path as (string | number)[], message: tidy(messageOf(issue)) };
    const segments = [...issue.path, issue.keys[0]!] as (string | number)[];
    const shown = issue.keys.map((k) => (SETTING_NAME.test(k) ? `"${k}"` : HIDDEN_KEY));
    const path = formatPath([...segments.slice(0, -1), SETTING_NAME.test(issue.keys[0]!) ? issue.keys[0]! : '(unknown key)']);
    return { path, segments, message: `unknown key${issue.keys.length > 1 ? 's' : ''} ${shown.join(', ')}` };
  });
}

// Settings are named by words ("timeouts", "firstByte"). A key that is no word is more likely a
// value that lost its ":" (`{ kind: openai-compatible, apiKey sk-live-… }` reads as the key
// "apiKey sk-live-…"), and these errors reach terminals, CI logs and the reload's log line, so
// such a key is not printed: its line says where it is.
const SETTING_NAME = /^[A-Za-z]{1,32}$/;
const HIDDEN_KEY = 'that is not a setting name (not shown: it may be a value written without its ":")';

/** A bad record key says why (the name rule) rather than zod's "Invalid key in record". */
function messageOf(issue: z.core.$ZodIssue): string {
  return issue.code === 'invalid_key' && issue.issues.length > 0 ? issue.issues.map((i) => i.message).join('; ') : issue.message;
}

/** zod's messages start with "Invalid input: "; the path already says where, so keep what was expected. */
function tidy(message: string): string {
  return message.replace(/^Invalid input: /, '').replace(/^Invalid option: /, '');
}

function withLine(issue: ConfigIssue, doc: Document, lines: LineCounter): ConfigIssue {
  const segments = issue.segments;
  if (issue.line || !segments) return issue;
  // Walk up until a node exists: a missing key is reported at its parent's line.
  for (let depth = segments.length; depth > 0; depth--) {
    const node = doc.getIn(segments.slice(0, depth), true);
    if (isNode(node) && node.range) return { path: issue.path, message: issue.message, line: lines.linePos(node.range[0]).line };
  }
  return issue;
}
