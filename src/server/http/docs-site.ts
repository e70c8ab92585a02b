import { readFileSync } from 'node:fs';
import type { Context } from 'koa';
import { marked } from 'marked';
import { API_BASE_PATH } from './api-base-path.ts';
import type { HttpRoute } from './http-route.ts';
import { loadSwaggerUiAssets, textAsset, type DocsAsset } from './docs-assets.ts';
import { DOCS_CSS, INITIALIZER_JS, docsPaths, gettingStartedPage, referencePage } from './docs-pages.ts';

const GETTING_STARTED_MARKDOWN = new URL('../../../docs/getting-started.md', import.meta.url);

/**
 * Nothing but our own origin, and no inline script or style. Swagger UI's
 * stylesheet draws its icons as data: SVG images, so the reference allows
 * those; the browser test fails on any CSP violation, so a Swagger UI upgrade
 * that needs more shows up there.
 */
const REFERENCE_CSP = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const STRICT_CSP = "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Pages are small and checked on every visit; asset URLs carry no version, so they are kept an hour, not forever. */
const PAGE_CACHE = 'no-cache';
const ASSET_CACHE = 'public, max-age=3600';

interface Served {
  readonly asset: DocsAsset;
  readonly cacheControl: string;
  readonly csp: string;
}

function serve(ctx: Context, { asset, cacheControl, csp }: Served): void {
  ctx.set('Content-Type', asset.contentType);
  ctx.set('Cache-Control', cacheControl);
  ctx.set('Content-Security-Policy', csp);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = asset.body;
}

/**
 * The routes of the public docs site, under `API_BASE_PATH`:
 * the reference (Swagger UI over `/openapi.json`) at `/docs`, the guide
 * rendered from `docs/getting-started.md` at `/docs/getting-started`, and
 * their files at `/docs/assets/<file>`. Everything is read and rendered here,
 * once; a missing file stops start-up. Each asset is its own route, so an
 * unknown file is the API's JSON 404 (route-fallback), not a 405.
 */
export function docsSiteRoutes(): HttpRoute[] {
  const paths = docsPaths(API_BASE_PATH);
  const html = (text: string): DocsAsset => textAsset(text, 'text/html; charset=utf-8');
  const article = marked.parse(readFileSync(GETTING_STARTED_MARKDOWN, 'utf8'), { async: false });

  const pages: ReadonlyArray<readonly [string, Served]> = [
    [paths.reference, { asset: html(referencePage(paths)), cacheControl: PAGE_CACHE, csp: REFERENCE_CSP }],
    [paths.gettingStarted, { asset: html(gettingStartedPage(paths, article)), cacheControl: PAGE_CACHE, csp: STRICT_CSP }],
  ];
  const assets = new Map([
    ...loadSwaggerUiAssets(),
    ['docs-init.js', textAsset(INITIALIZER_JS, 'text/javascript; charset=utf-8')],
    ['docs.css', textAsset(DOCS_CSS, 'text/css; charset=utf-8')],
  ]);
  const files = [...assets].map(([file, asset]) => [paths.asset(file), { asset, cacheControl: ASSET_CACHE, csp: STRICT_CSP }] as const);

  return [...pages, ...files].map(([path, served]) => ({ path, run: (ctx) => serve(ctx, served) }));
}
