import type { Middleware } from 'koa';
import type { HttpRoute } from './http-route.ts';
import { createPathSuggester } from './path-suggestion.ts';
import { createRouteTable } from './route-table.ts';

/** The routes of the server, found by one table, and whether a path is one of them. */
export interface ApiRoutes {
  /** Runs the route of a GET or HEAD, or passes the request on when none matches. */
  readonly dispatch: Middleware;
  /** Whether any route has this path (a non-GET method on it is a 405, not a 404). */
  pathExists(path: string): boolean;
  /** The path a path no route has was likely meant to be, or null (path-suggestion.ts). */
  suggestPath(path: string): string | null;
}

/**
 * One routing mechanism for every path: the segment table of
 * `route-table.ts`. It was measured against @koa/router, which tests each
 * route's regular expression in turn: over the ~190 routes of 93 families
 * the router cost a seventh of the CPU of a get by id, the table next to
 * nothing (docs/PERFORMANCE.md). @koa/router stays only as the model the
 * table is checked against (test/server/http/route-table.test.ts).
 */
export function createApiRoutes(routes: readonly HttpRoute[]): ApiRoutes {
  const table = createRouteTable({ base: '', routes });
  return {
    dispatch: (ctx, next) => {
      const found = ctx.method === 'GET' || ctx.method === 'HEAD' ? table.match(ctx.path) : null;
      if (!found) return next();
      ctx.params = found.params;
      // The metrics label a request by its route's pattern, never by the raw path.
      (ctx as { _matchedRoute?: string })._matchedRoute = found.route.path;
      if (found.route.family !== undefined) ctx.state.family = found.route.family;
      return found.route.run(ctx, next);
    },
    pathExists: (path) => table.match(path) !== null,
    suggestPath: createPathSuggester(routes.map((route) => route.path)),
  };
}
