// Structured logs (pino). Credentials are redacted by path as a second line of defence; the
// first is that secrets are Secret objects that print as "[secret]".
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(options: { level?: string; destination?: NodeJS.WritableStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? process.env.WARDEN_LOG_LEVEL ?? 'info',
      base: undefined,
      redact: { paths: ['headers.authorization', '*.headers.authorization', 'apiKey', '*.apiKey', 'authorization'], censor: '[secret]' },
    },
    // Asynchronous stdout: lines written while a write is under way go out together, so the
    // per-request line costs no syscall of its own under load; pino flushes it at exit.
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
