import type { Middleware } from 'koa';

/**
 * One path the server answers (GET and HEAD), as a plain value: every route
 * of the server, the families' and the docs' and the probes', is one of
 * these in one route table (`api-routes.ts`).
 */
export interface HttpRoute {
  /** The full path pattern (`/api/public/v1/brands/:brand/products/:id`, `/healthz`). */
  readonly path: string;
  /** The route's middleware, composed once at start-up. */
  readonly run: Middleware;
  /** The family a route serves, for logs; absent on routes of no family. */
  readonly family?: string;
}
