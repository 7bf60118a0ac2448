// A minimal OTLP/HTTP trace receiver on loopback: it keeps every span it is sent (JSON
// encoding), flattened with its resource's service name, and the headers of each export.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  service: string | null;
  statusCode: number;
  attributes: Record<string, string | number | boolean>;
}

export interface OtlpReceiver {
  /** http://127.0.0.1:PORT/v1/traces */
  endpoint: string;
  spans: ReceivedSpan[];
  headers: IncomingHttpHeaders[];
  /** Resolves once the spans received satisfy `done` (checked at once and after every export). */
  until(done: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans: Array<{ spans: Array<{ traceId: string; spanId: string; parentSpanId?: string; name: string; status?: { code?: number }; attributes?: OtlpAttribute[] }> }>;
  }>;
}

const valueOf = (v: OtlpValue) => v.stringValue ?? v.boolValue ?? v.doubleValue ?? (v.intValue === undefined ? '' : Number(v.intValue));
const attributesOf = (list: OtlpAttribute[] = []) => Object.fromEntries(list.map((a) => [a.key, valueOf(a.value)]));

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const headers: IncomingHttpHeaders[] = [];
  const waiters: Array<{ done: (spans: ReceivedSpan[]) => boolean; resolve: (spans: ReceivedSpan[]) => void }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      headers.push(req.headers);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
      for (const rs of body.resourceSpans) {
        const service = attributesOf(rs.resource?.attributes)['service.name'];
        for (const ss of rs.scopeSpans) {
          for (const s of ss.spans) {
            spans.push({
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || null,
              name: s.name,
              service: typeof service === 'string' ? service : null,
              statusCode: s.status?.code ?? 0,
              attributes: attributesOf(s.attributes),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const w of waiters.splice(0)) {
        if (w.done(spans)) w.resolve(spans);
        else waiters.push(w);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    spans,
    headers,
    until: (done) => (done(spans) ? Promise.resolve(spans) : new Promise((resolve) => waiters.push({ done, resolve }))),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
