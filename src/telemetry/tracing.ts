// OpenTelemetry traces, only when an OTLP endpoint is configured. The SDK and the exporter
// are loaded on start (about 8 MiB and 100 ms), so a gateway without `telemetry.otlp` never
// loads them, registers no provider and hands out null `spans`: callers pay a null check.
// The provider stays local (not the global API's), so several gateways in one process (the
// tests) each keep their own.
import type { BasicTracerProvider, ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { WardenConfig } from '../config/index.js';
import type { Logger } from './logger.js';
import { Spans } from './spans.js';

export type OtlpConfig = NonNullable<NonNullable<WardenConfig['telemetry']>['otlp']>;

/** How long a shutdown waits for the last batch to reach the collector. */
const FINAL_EXPORT_MS = 2_000;

/** Where the request path and the canary find the spans to write: null when tracing is off. */
export interface SpanSource {
  readonly spans: Spans | null;
}

export class Tracing implements SpanSource {
  spans: Spans | null = null;
  #provider: BasicTracerProvider | null = null;
  #starting: Promise<void> | null = null;

  constructor(
    private readonly config: OtlpConfig | undefined,
    private readonly log: Logger,
  ) {}

  /** Loads the SDK and creates the tracer; idempotent, and a no-op without an endpoint. */
  start(): Promise<void> {
    if (!this.config) return Promise.resolve();
    this.#starting ??= this.#load(this.config);
    return this.#starting;
  }

  /**
   * Exports what is still batched, then stops. Never fails and never holds a shutdown long: a
   * collector that is down or slow costs the last batch (logged), not the store's orderly close
   * after it.
   */
  async shutdown(): Promise<void> {
    await this.#starting;
    const provider = this.#provider;
    this.spans = null;
    this.#provider = null;
    if (!provider) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), FINAL_EXPORT_MS);
      timer.unref();
    });
    try {
      if ((await Promise.race([provider.shutdown(), late])) === 'late') this.log.warn({ waitedMs: FINAL_EXPORT_MS }, 'trace collector too slow at shutdown; last spans dropped');
    } catch (e) {
      this.log.warn({ error: describeExportError(e) }, 'trace export failed at shutdown; last spans dropped');
    } finally {
      clearTimeout(timer);
    }
  }

  async #load(config: OtlpConfig): Promise<void> {
    const [{ BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }, { ATTR_SERVICE_NAME }] = await Promise.all([
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/exporter-trace-otlp-http'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/semantic-conventions'),
    ]);
    // Header values are Secrets: revealed here, for the exporter only.
    const headers = Object.fromEntries(Object.entries(config.headers).map(([name, value]) => [name, value.reveal()]));
    const exporter = reportingFailures(new OTLPTraceExporter({ url: config.endpoint, headers }), this.log);
    this.#provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName }),
      spanProcessors: [new BatchSpanProcessor(exporter)],
    });
    this.spans = new Spans(this.#provider.getTracer('warden'));
    this.log.info({ endpoint: new URL(config.endpoint).origin }, 'exporting traces over OTLP/HTTP');
  }
}

/** The SDK drops a batch it cannot deliver without a word; an operator should hear of it. */
function reportingFailures(exporter: SpanExporter, log: Logger): SpanExporter {
  return {
    export(spans: ReadableSpan[], done) {
      exporter.export(spans, (result) => {
        // ExportResultCode.SUCCESS is 0.
        if (result.code !== 0) log.warn({ spans: spans.length, error: describeExportError(result.error) }, 'trace export failed; spans dropped');
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

/**
 * An export error's cause for the log: its code (ECONNREFUSED, an HTTP status) and message,
 * with any URL cut out, since the endpoint's address may carry credentials.
 */
export function describeExportError(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown';
  const code = (error as { code?: unknown }).code;
  const message = error.message.replace(/[a-z][a-z0-9+.-]*:\/\/\S+/gi, '<url>');
  return [error.name, code === undefined ? null : String(code), message].filter((p) => p !== null && p !== '').join(': ');
}
