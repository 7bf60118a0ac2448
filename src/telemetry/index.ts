export { GatewayMetrics, type Outcome } from './metrics.js';
export { createLogger, type Logger } from './logger.js';
export { Audit } from './audit.js';
export { Notifier, type Notice, type NotifierOptions } from './notifier.js';
