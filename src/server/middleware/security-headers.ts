import type { Middleware } from 'koa';

/**
 * Headers every response carries, set before the route runs so that a route
 * with its own policy (the docs pages) replaces them. JSON is never rendered
 * or framed, so it gets the strictest policy; the transport's security
 * (TLS, HSTS) belongs to the proxy in front.
 */
export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
    ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
    await next();
  };
}
