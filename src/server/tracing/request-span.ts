import type { Context, Middleware } from 'koa';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, defaultTextMapGetter, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

const propagator = new W3CTraceContextPropagator();

/**
 * A SERVER span per request, outermost, so that everything below (the
 * envelope's log line, the SQL and Redis spans) runs inside it. It continues
 * the caller's trace: a valid `traceparent` (and its `tracestate`) makes the
 * caller's span its parent. It is named by the route's template once routing
 * has found it (`GET /api/public/v1/brands/:brand/products/:id`), never the
 * raw path, which holds ids; it carries the brand's slug, the family, the
 * key's id (the log line's too: which client's request this was) and the
 * request id, and never the key itself nor a query value.
 */
export function requestSpans({ tracer, contexts }: { tracer: Tracer; contexts: AsyncLocalStorageContextManager }): Middleware {
  return async (ctx, next) => {
    const parent = propagator.extract(ROOT_CONTEXT, ctx.headers, defaultTextMapGetter);
    const span = tracer.startSpan(ctx.method, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': ctx.method, 'server.address': ctx.hostname, 'url.scheme': ctx.protocol },
    }, parent);
    try {
      await contexts.with(trace.setSpan(parent, span), next);
    } finally {
      describeAnswer(span, ctx);
      span.end();
    }
  };
}

/** What is known once the envelope has answered: the route, the status (an error's too), who asked for what. */
function describeAnswer(span: Span, ctx: Context): void {
  const route = (ctx as { _matchedRoute?: string })._matchedRoute;
  if (route !== undefined) {
    span.updateName(`${ctx.method} ${route}`);
    span.setAttribute('http.route', route);
  }
  span.setAttribute('http.response.status_code', ctx.status);
  const { brand, family, keyId, requestId } = ctx.state as { brand?: { slug?: string }; family?: string; keyId?: string; requestId?: string };
  if (brand?.slug !== undefined) span.setAttribute('bcat.brand', brand.slug);
  if (family !== undefined) span.setAttribute('bcat.family', family);
  if (keyId !== undefined) span.setAttribute('bcat.key_id', keyId);
  if (requestId !== undefined) span.setAttribute('bcat.request_id', requestId);
  if (ctx.status >= 500) {
    span.setAttribute('error.type', String(ctx.status));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
}
