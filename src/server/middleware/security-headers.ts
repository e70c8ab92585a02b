import { setHeader } from './set-header.ts';
import type { Context } from 'koa';

/**
 * Headers every response carries, set before the route runs so that a route
 * with its own policy (the docs pages) replaces them. JSON is never rendered
 * or framed, so it gets the strictest policy; the transport's security
 * (TLS, HSTS) belongs to the proxy in front.
 */
export const SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'no-referrer'],
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
];

export function setSecurityHeaders(ctx: Context): void {
  for (const [name, value] of SECURITY_HEADERS) setHeader(ctx, name, value);
}
