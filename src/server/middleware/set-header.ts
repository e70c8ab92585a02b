import type { Context } from 'koa';

/**
 * Sets one response header on Node's response, as Koa's `ctx.set(name,
 * value)` does in the end, without the arrays and closures Koa builds around
 * each call: about 12 KB of garbage a get over its headers (an allocation
 * profile, docs/PERFORMANCE.md). Like Koa, nothing once the headers are sent.
 */
export function setHeader(ctx: Context, name: string, value: string): void {
  if (!ctx.headerSent) ctx.res.setHeader(name, value);
}
