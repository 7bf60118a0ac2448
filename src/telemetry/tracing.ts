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

  /** Exports what is still batched, then stops. */
  async shutdown(): Promise<void> {
    await this.#starting;
    const provider = this.#provider;
    this.spans = null;
    this.#provider = null;
    await provider?.shutdown();
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
        // ExportResultCode.SUCCESS is 0; the error's text may quote the endpoint, so only its name is logged.
        if (result.code !== 0) log.warn({ spans: spans.length, error: result.error?.name ?? 'unknown' }, 'trace export failed; spans dropped');
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
