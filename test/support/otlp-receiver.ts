import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it, its attributes made plain values. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  /** 1 INTERNAL, 2 SERVER, 3 CLIENT. */
  readonly kind: number;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  /** The service that sent it (`service.name` of its resource). */
  readonly service: string;
}

/** A collector of the test's own: `POST /v1/traces` in OTLP/HTTP JSON, kept decoded and as the bytes that came. */
export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: OTEL_EXPORTER_OTLP_ENDPOINT (the exporter adds `/v1/traces`). */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  /** Every JSON body received, as text: to search for what must never be exported. */
  readonly bodies: string[];
  /** Every protobuf body received (`http/protobuf`, the default protocol), as it came: not decoded (that needs the schema). */
  readonly protobufBodies: Buffer[];
  close(): Promise<void>;
}

interface OtlpValue { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number }
interface OtlpAttribute { key: string; value: OtlpValue }
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { spans?: (Omit<ReceivedSpan, 'attributes' | 'service'> & { attributes?: OtlpAttribute[] })[] }[];
  }[];
}

const plain = ({ stringValue, intValue, boolValue, doubleValue }: OtlpValue): string | number | boolean =>
  stringValue ?? (intValue === undefined ? undefined : Number(intValue)) ?? boolValue ?? doubleValue ?? '';

const attributesOf = (list: OtlpAttribute[] = []): Record<string, string | number | boolean> =>
  Object.fromEntries(list.map(({ key, value }) => [key, plain(value)]));

function decode(body: string): ReceivedSpan[] {
  const parsed = JSON.parse(body) as OtlpExport;
  return (parsed.resourceSpans ?? []).flatMap(({ resource, scopeSpans = [] }) => {
    const service = String(attributesOf(resource?.attributes)['service.name'] ?? '');
    return scopeSpans.flatMap(({ spans = [] }) => spans.map((span) => ({
      traceId: span.traceId,
      spanId: span.spanId,
      parentSpanId: span.parentSpanId ?? '',
      name: span.name,
      kind: span.kind,
      attributes: attributesOf(span.attributes),
      service,
    })));
  });
}

/** Starts a receiver on a free loopback port; any other path, or a JSON body that does not parse, gets 400 and is kept nowhere. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const bodies: string[] = [];
  const protobufBodies: Buffer[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const body = bytes.toString();
      try {
        if (request.method !== 'POST' || request.url !== '/v1/traces') throw new Error(`${request.method} ${request.url}`);
        if (request.headers['content-type'] === 'application/x-protobuf') {
          protobufBodies.push(bytes);
          response.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
          return;
        }
        spans.push(...decode(body));
        bodies.push(body);
        response.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      } catch {
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    bodies,
    protobufBodies,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
