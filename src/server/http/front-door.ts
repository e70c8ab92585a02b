import { API_VERSION } from '../../engine/openapi/build-openapi.ts';
import { API_BASE_PATH } from './api-base-path.ts';
import type { HttpRoute } from './http-route.ts';

/** What the front door says: the service, its version, and where to read about it (origin-relative URLs). */
export const FRONT_DOOR = Object.freeze({
  name: 'Brand Catalog Read API',
  version: API_VERSION,
  docs: `${API_BASE_PATH}/docs`,
  gettingStarted: `${API_BASE_PATH}/docs/getting-started`,
  openapi: `${API_BASE_PATH}/openapi.json`,
});

/**
 * The root and the base path answer anyone, without a key, with what the
 * service is and where its docs are, instead of a bare 404: the first
 * request a newcomer makes is often one of these two. The URLs are
 * origin-relative, so nothing depends on a Host header.
 */
export function frontDoorRoutes(): HttpRoute[] {
  const body = JSON.stringify(FRONT_DOOR);
  return ['/', API_BASE_PATH].map((path) => ({
    path,
    run: (ctx) => {
      ctx.type = 'application/json';
      ctx.body = body;
    },
  }));
}
