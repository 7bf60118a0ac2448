export { GatewayMetrics, type Outcome, type ErrorClass, type RoleResult } from './metrics.js';
export { createLogger, type Logger } from './logger.js';
export { RequestLog, type RequestLine } from './request-log.js';
export { Audit } from './audit.js';
export { Notifier, type Notice, type NotifierOptions, type WebhookSettings } from './notifier.js';
export { Tracing, type SpanSource, type OtlpConfig } from './tracing.js';
export type { Spans, Span } from './spans.js';
