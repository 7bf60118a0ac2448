// Key changes go out to webhooks: POSTed as JSON, retried with backoff, never blocking the
// gateway (fire and forget, a bounded queue), and never carrying a secret.
import { request } from 'undici';
import type { Clock } from '../clock/index.js';
import type { Logger } from './logger.js';

export interface Notice {
  type: string;
  route: string | null;
  at: number;
  summary: string;
  detail: Record<string, unknown>;
}

/** Where notices go and how hard they are pushed; a reload may change them (see update). */
export interface WebhookSettings {
  webhooks: readonly string[];
  timeoutMs: number;
  retries: number;
}

export interface NotifierOptions extends WebhookSettings {
  clock: Clock;
  log: Logger;
}

const MAX_PENDING = 1_000;

export class Notifier {
  #pending = 0;
  #sent = 0;
  #failed = 0;
  #idle: Array<() => void> = [];
  #settings: WebhookSettings;

  constructor(private readonly options: NotifierOptions) {
    this.#settings = { webhooks: options.webhooks, timeoutMs: options.timeoutMs, retries: options.retries };
  }

  /** New webhooks, timeout and retries, from the next notice on; deliveries under way keep theirs. */
  update(settings: WebhookSettings): void {
    this.#settings = { ...settings };
  }

  notify(notice: Notice): void {
    this.options.log.warn({ notice: notice.type, route: notice.route, ...notice.detail }, notice.summary);
    const settings = this.#settings;
    for (const url of settings.webhooks) {
      if (this.#pending >= MAX_PENDING) {
        this.#failed++;
        continue;
      }
      this.#pending++;
      void this.#deliver(url, notice, settings).finally(() => {
        this.#pending--;
        if (this.#pending === 0) for (const resolve of this.#idle.splice(0)) resolve();
      });
    }
  }

  get stats(): { pending: number; sent: number; failed: number } {
    return { pending: this.#pending, sent: this.#sent, failed: this.#failed };
  }

  /** Resolves when every notice queued so far was delivered or given up (tests, shutdown). */
  settled(): Promise<void> {
    return this.#pending === 0 ? Promise.resolve() : new Promise((resolve) => this.#idle.push(resolve));
  }

  async #deliver(url: string, notice: Notice, { timeoutMs, retries }: WebhookSettings): Promise<void> {
    const body = JSON.stringify({ source: 'warden', ...notice });
    for (let attempt = 0; attempt <= retries; attempt++) {
      try {
        const res = await request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
        await res.body.dump();
        if (res.statusCode < 300) {
          this.#sent++;
          return;
        }
      } catch {
        // retried below
      }
      if (attempt < retries) await this.options.clock.sleep(500 * 4 ** attempt).catch(() => undefined);
    }
    this.#failed++;
    this.options.log.error({ notice: notice.type, webhook: new URL(url).host }, 'webhook delivery failed after retries');
  }
}
