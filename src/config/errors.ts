// Config errors name the place in the file (`roles.chat.models[1]`, with its line when the
// YAML has one) and what was expected, so a user can fix the file without reading code.

export type ConfigPath = ReadonlyArray<string | number>;

export interface ConfigIssue {
  path: string;
  message: string;
  line?: number;
  /** The path as keys and indexes, to find the line; names may themselves contain dots. */
  segments?: ConfigPath;
}

export function formatPath(path: ConfigPath): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${part}` : part;
  }
  return out || '(root)';
}

export class ConfigError extends Error {
  readonly code = 'invalid_config';
  constructor(
    readonly source: string,
    readonly issues: ConfigIssue[],
  ) {
    super(`${source}: ${issues.length} problem${issues.length === 1 ? '' : 's'}\n${issues.map(formatIssue).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function formatIssue(issue: ConfigIssue): string {
  const where = issue.line ? `${issue.path} (line ${issue.line})` : issue.path;
  return `  ${where}: ${issue.message}`;
}

export function isConfigError(e: unknown): e is ConfigError {
  return e instanceof ConfigError;
}
