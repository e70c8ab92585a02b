/**
 * The OpenTelemetry implementation of the tracing port. Imported only by
 * `start-tracing.ts`, dynamically, when the settings ask for traces: with
 * tracing off, neither this file nor any `@opentelemetry` module is loaded.
 *
 * Nothing is registered globally (no global tracer provider, propagator or
 * context manager): the server makes its spans itself at its few doors to
 * Postgres and Redis, so it needs no one else's instrumentation, and turning
 * tracing off (a test) leaves no trace in the process.
 */
import { SpanKind, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { setGlobalErrorHandler } from '@opentelemetry/core';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { SqlFragment } from '../../engine/compile/sql-fragment.ts';
import type { Logger } from '../logger.ts';
import { requestSpans } from './request-span.ts';
import type { TraceProtocol, Tracing } from './tracing.ts';

/** The service's name in traces unless OTEL_SERVICE_NAME says otherwise: the name its log lines carry. */
export const DEFAULT_SERVICE_NAME = 'brand-catalog-read-api';

/** The exporter of each protocol; each reads the OTEL_EXPORTER_OTLP_* settings itself (endpoint, headers, timeout, compression). */
const EXPORTERS: Readonly<Record<TraceProtocol, () => Promise<SpanExporter>>> = {
  'http/protobuf': async () => new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter(),
  'http/json': async () => new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(),
};

/**
 * Opens the provider on the standard settings: the sampler
 * (OTEL_TRACES_SAMPLER, parent-based always-on by default), the batch
 * processor (OTEL_BSP_*), the resource (OTEL_SERVICE_NAME,
 * OTEL_RESOURCE_ATTRIBUTES), the exporter's. A failed export is logged,
 * once until an export succeeds again; it never fails a request.
 */
export async function openTelemetryTracing({ protocol, logger }: { protocol: TraceProtocol; logger: Logger }): Promise<Tracing> {
  let exportFailing = false;
  setGlobalErrorHandler((error) => {
    if (!exportFailing) logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'trace export failed: spans are dropped until the collector answers');
    exportFailing = true;
  });
  const exporter = await EXPORTERS[protocol]();
  // The deployment's version is the deployer's to give: OTEL_RESOURCE_ATTRIBUTES=service.version=...
  const resource = resourceFromAttributes({ 'service.name': DEFAULT_SERVICE_NAME })
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new BasicTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor({
      export: (spans, done) => exporter.export(spans, (result) => {
        if (result.code === 0) exportFailing = false;
        done(result);
      }),
      shutdown: () => exporter.shutdown(),
      forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
    })],
  });
  const contexts = new AsyncLocalStorageContextManager().enable();
  const tracer = provider.getTracer(DEFAULT_SERVICE_NAME);
  const client = clientSpans({ tracer, contexts });
  return {
    requestSpans: () => requestSpans({ tracer, contexts }),
    query: (plan, run) => client({ name: queryName(plan), attributes: queryAttributes(plan), run }),
    redis: (operation, run, attributes) => client({
      name: `redis ${operation}`,
      attributes: { 'db.system.name': 'redis', 'db.system': 'redis', 'db.operation.name': operation, ...attributes },
      run,
    }),
    logFields() {
      const span = trace.getSpan(contexts.active());
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { traceId, spanId };
    },
    async shutdown() {
      // The last export may fail (the collector gone first): the spans are lost, the stop goes on.
      await provider.shutdown().catch((error: unknown) => logger.warn({ err: (error as Error).message }, 'trace export failed at shutdown: its spans are lost'));
      contexts.disable();
    },
  };
}

const queryName = (plan: SqlFragment): string => (plan.label ? `${plan.label.family} ${plan.label.operation}` : 'sql');

function queryAttributes({ label }: SqlFragment): Attributes {
  const attributes: Attributes = { 'db.system.name': 'postgresql', 'db.system': 'postgresql' };
  if (label) {
    attributes['db.operation.name'] = label.operation;
    attributes['db.collection.name'] = label.table;
    attributes['bcat.family'] = label.family;
  }
  return attributes;
}

/**
 * A CLIENT span around one call, child of the request's span; a call made
 * outside any traced request gets none (no root span per background query).
 * A failure records its kind (Postgres's SQLSTATE, say) and never its
 * message, which may quote a value.
 */
function clientSpans({ tracer, contexts }: { tracer: Tracer; contexts: AsyncLocalStorageContextManager }) {
  return async <T>({ name, attributes, run }: { name: string; attributes: Attributes; run: () => Promise<T> }): Promise<T> => {
    const parent = contexts.active();
    if (!trace.getSpan(parent)) return run();
    const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent);
    try {
      return await run();
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  };
}

function failed(span: Span, error: unknown): void {
  const code = (error as { code?: unknown } | null)?.code;
  span.setAttribute('error.type', typeof code === 'string' ? code : (error as Error | null)?.name ?? 'error');
  span.setStatus({ code: SpanStatusCode.ERROR });
}
