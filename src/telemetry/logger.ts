// Structured logs (pino). Credentials are redacted by path as a second line of defence; the
// first is that secrets are Secret objects that print as "[secret]".
import { pino, type Logger } from 'pino';
import { stdoutLogSink } from './log-sink.js';

export type { Logger };

export function createLogger(options: { level?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env.WARDEN_LOG_LEVEL ?? 'info',
      base: undefined,
      redact: { paths: ['headers.authorization', '*.headers.authorization', 'apiKey', '*.apiKey', 'authorization'], censor: '[secret]' },
    },
    options.destination ?? stdoutLogSink(),
  );
}
