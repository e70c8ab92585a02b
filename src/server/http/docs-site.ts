import { readdirSync, readFileSync } from 'node:fs';
import type { Context } from 'koa';
import { marked } from 'marked';
import { API_BASE_PATH } from './api-base-path.ts';
import type { HttpRoute } from './http-route.ts';
import { loadScalarAssets, textAsset, type DocsAsset } from './docs-assets.ts';
import { FAVICON_SVG, INITIALIZER_JS, SETUP_JS } from './docs-init.ts';
import { docsPaths, guidePage, referencePage, type GuideLink } from './docs-pages.ts';
import { DOCS_CSS } from './docs-styles.ts';

const GUIDES_DIR = new URL('../../../docs/guides/', import.meta.url);

/**
 * The guides in the header bar's order: a guide is a markdown file in
 * `docs/guides`, listed here with the short name the bar shows. A file not
 * listed stops start-up, so none is left unlinked.
 */
export const GUIDES: readonly GuideLink[] = [
  { slug: 'getting-started', label: 'Getting started' },
  { slug: 'keys', label: 'Keys' },
  { slug: 'pagination', label: 'Lists' },
  { slug: 'asking-lists', label: 'Asking lists' },
  { slug: 'errors', label: 'Errors' },
  { slug: 'rate-limits', label: 'Rate limits' },
  { slug: 'syncing', label: 'Syncing' },
];

interface Guide {
  readonly link: GuideLink;
  readonly title: string;
  readonly html: string;
}

/** Every guide, read and rendered once; its title is its first `# ` heading. */
function loadGuides(): Guide[] {
  const files = readdirSync(GUIDES_DIR).filter((file) => file.endsWith('.md')).sort();
  const listed = GUIDES.map((guide) => `${guide.slug}.md`).sort();
  if (files.join() !== listed.join()) throw new Error(`docs/guides holds ${files.join(', ')}; docs-site.ts GUIDES lists ${listed.join(', ')}`);
  return GUIDES.map((link) => {
    const markdown = readFileSync(new URL(`${link.slug}.md`, GUIDES_DIR), 'utf8');
    const title = /^# (.+)$/m.exec(markdown)?.[1] ?? link.label;
    return { link, title, html: marked.parse(markdown, { async: false }) };
  });
}

/**
 * Nothing but our own origin, and no inline script anywhere. The reference
 * relaxes two things for Scalar, and nothing else:
 * - `style-src 'unsafe-inline'`: Scalar adds its stylesheets as `<style>`
 *   elements (its own, which could carry a nonce, but also its theme's, its
 *   toasts' and its components', which cannot) and sets `style` attributes
 *   while it renders; with a strict `style-src` it draws an unstyled page and
 *   the console fills with violations. Styles cannot run code: scripts stay
 *   `'self'` only.
 * - `img-src data:`: Scalar's icons are `data:` SVG images.
 * The guides and the assets keep the strict policy. The browser test fails
 * on any CSP violation, so a Scalar upgrade that needs more shows up there.
 */
const REFERENCE_CSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
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

const html = (text: string): DocsAsset => textAsset(text, 'text/html; charset=utf-8');

/**
 * The routes of the public docs site, under `API_BASE_PATH`:
 * the reference (Scalar over `/openapi.json`) at `/docs`, each guide
 * rendered from `docs/guides/<slug>.md` at `/docs/<slug>`, and
 * their files at `/docs/assets/<file>`. Everything is read and rendered here,
 * once; a missing file stops start-up. Each asset is its own route, so an unknown
 * file is the API's JSON 404 (route-fallback), not a 405.
 */
export function docsSiteRoutes(): HttpRoute[] {
  const paths = docsPaths(API_BASE_PATH);
  const pages: ReadonlyArray<readonly [string, Served]> = [
    [paths.reference, { asset: html(referencePage(paths, GUIDES)), cacheControl: PAGE_CACHE, csp: REFERENCE_CSP }],
    ...loadGuides().map(({ link, title, html: articleHtml }) => [
      paths.guide(link.slug),
      { asset: html(guidePage({ paths, guides: GUIDES, guide: link, title, articleHtml })), cacheControl: PAGE_CACHE, csp: STRICT_CSP },
    ] as const),
  ];
  const assets = new Map([
    ...loadScalarAssets(),
    ['docs-setup.js', textAsset(SETUP_JS, 'text/javascript; charset=utf-8')],
    ['docs-init.js', textAsset(INITIALIZER_JS, 'text/javascript; charset=utf-8')],
    ['docs.css', textAsset(DOCS_CSS, 'text/css; charset=utf-8')],
    ['favicon.svg', textAsset(FAVICON_SVG, 'image/svg+xml')],
  ]);
  const files = [...assets].map(([file, asset]) => [paths.asset(file), { asset, cacheControl: ASSET_CACHE, csp: STRICT_CSP }] as const);

  return [...pages, ...files].map(([path, served]) => ({ path, run: (ctx) => serve(ctx, served) }));
}
