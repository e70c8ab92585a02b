import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { GUIDES } from '../../../src/server/http/docs-site.ts';
import { createBrand, resetToBrand } from '../../support/fixtures.ts';
import { useServer } from '../../support/use-server.ts';

const DOCS = '/api/public/v1/docs';
const GETTING_STARTED = `${DOCS}/getting-started`;
const GUIDE_PAGES = GUIDES.map((guide) => `${DOCS}/${guide.slug}`);

/** Every `src` and `href` of a page. */
function urlsOf(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
}

describe('docs site', () => {
  const server = useServer();

  for (const path of [DOCS, ...GUIDE_PAGES]) {
    describe(`GET ${path}`, () => {
      it('is an HTML page, served without a key, under a CSP of our own origin', async () => {
        const response = await server.request(path);
        expect(response.status).to.equal(200);
        expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
        const csp = response.headers.get('content-security-policy')!;
        expect(csp).to.match(/^default-src 'self';/);
        // Scripts come from our origin only, never inline or eval'd; only the reference lets Scalar style inline (docs-site.ts says why).
        expect(csp).to.not.match(/script-src|unsafe-eval/);
        if (path === DOCS) expect(csp).to.equal("default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");
        else expect(csp).not.to.contain('unsafe');
        expect(response.headers.get('cache-control')).to.equal('no-cache');
        expect(response.text).to.match(/^<!doctype html>/);
      });

      it('loads only local files, with no inline script or style (the CSP would block them)', async () => {
        const { text } = await server.request(path);
        const urls = urlsOf(text);
        expect(urls).not.to.be.empty;
        for (const url of urls) expect(url, url).to.match(/^\/api\/public\/v1\//);
        expect(text).not.to.match(/<script(?![^>]*\ssrc=)/);
        expect(text).not.to.match(/<style|<[^>]+\s(?:style|on[a-z]+)=/i);
      });

      it('serves every asset it references, with its type and a cache lifetime', async () => {
        const { text } = await server.request(path);
        const assets = urlsOf(text).filter((url) => url.startsWith(`${DOCS}/assets/`));
        expect(assets).not.to.be.empty;
        for (const asset of assets) {
          const response = await server.request(asset);
          expect(response.status, asset).to.equal(200);
          const types: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml' };
          const type = types[asset.split('.').pop()!];
          expect(response.headers.get('content-type'), asset).to.equal(type);
          expect(response.headers.get('cache-control'), asset).to.equal('public, max-age=3600');
          expect(response.headers.get('x-content-type-options'), asset).to.equal('nosniff');
          expect(Number(response.headers.get('content-length')), asset).to.be.greaterThan(0);
        }
      });

      it('answers HEAD like GET, without a body', async () => {
        const response = await server.request(path, { method: 'HEAD' });
        expect(response.status).to.equal(200);
        expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
        expect(response.text).to.equal('');
      });
    });
  }

  it('links the reference and the getting-started page to each other', async () => {
    expect(urlsOf((await server.request(DOCS)).text)).to.include(GETTING_STARTED);
    expect(urlsOf((await server.request(GETTING_STARTED)).text)).to.include(DOCS);
  });

  it('points Scalar at the served document, with everything that would call Scalar\'s services off', async () => {
    const page = await server.request(DOCS);
    expect(page.text).to.contain('data-document-url="/api/public/v1/openapi.json"');
    expect(page.text).to.contain(`src="${DOCS}/assets/scalar-api-reference.js"`);
    // The proxy is only used for requests to another host, so the browser test, on one origin, would not see it: checked here.
    const initializer = await server.request(`${DOCS}/assets/docs-init.js`);
    for (const setting of ["proxyUrl: ''", 'withDefaultFonts: false', 'telemetry: false', 'agent: { disabled: true }']) expect(initializer.text).to.contain(setting);
    const bundle = await server.request(`${DOCS}/assets/scalar-api-reference.js`);
    expect(Number(bundle.headers.get('content-length'))).to.be.greaterThan(1_000_000);
  });

  it('serves every guide of docs/guides at /docs/<slug>, titled by its heading, linked from every page', async () => {
    const syncing = await server.request(`${DOCS}/syncing`);
    expect(syncing.status).to.equal(200);
    expect(syncing.text).to.contain('<title>Keeping a copy in sync · Brand Catalog Read API</title>');
    expect(syncing.text).to.contain('<h1>Keeping a copy in sync</h1>');
    expect(syncing.text).to.contain('syncToken');
    expect(GUIDES.map((guide) => guide.slug)).to.deep.equal(['getting-started', 'keys', 'pagination', 'asking-lists', 'errors', 'rate-limits', 'syncing']);
    for (const page of [DOCS, ...GUIDE_PAGES]) {
      expect(urlsOf((await server.request(page)).text), page).to.include.members([DOCS, ...GUIDE_PAGES]);
    }
  });

  it('links from each guide only to pages the site has', async () => {
    const known = new Set([DOCS, ...GUIDE_PAGES, '/api/public/v1/openapi.json']);
    for (const page of GUIDE_PAGES) {
      const article = /<main class="docs-article">([\s\S]*)<\/main>/.exec((await server.request(page)).text)![1]!;
      for (const url of urlsOf(article)) expect(known.has(url.split('#')[0]!), `${page} links to ${url}`).to.equal(true);
    }
  });

  it('renders docs/guides/getting-started.md to HTML, with a first request and the paths', async () => {
    const { text } = await server.request(GETTING_STARTED);
    expect(text).to.contain('<h1>Getting started</h1>');
    expect(text).to.contain('<pre><code class="language-sh">export API_URL=http://localhost:3000 API_KEY=bcat_sk_...');
    expect(text).to.contain('<table>');
  });

  it('lists every error code in the errors guide', async () => {
    const { text } = await server.request(`${DOCS}/errors`);
    for (const code of ['invalid_parameter', 'unsupported_include', 'invalid_cursor', 'cursor_mismatch', 'unauthorized', 'not_found', 'method_not_allowed', 'sync_token_expired', 'rate_limited', 'internal_error']) {
      expect(text, code).to.contain(`<code>${code}</code>`);
    }
    for (const reason of ['missing', 'malformed', 'unknown_or_revoked', 'expired', 'brand_not_allowed']) expect(text, reason).to.contain(`<code>${reason}</code>`);
  });

  it("quotes the server's own answers in the errors guide", async () => {
    const guide = readFileSync(new URL('../../../docs/guides/errors.md', import.meta.url), 'utf8');
    const { key } = await resetToBrand('northwind');
    await createBrand('southpeak');
    const requests: ReadonlyArray<readonly [string, string | null, string?]> = [
      ['/brands/northwind/products?limit=500&colour=red', key],
      ['/brands/northwind/products?updatedSince=2026-03-01T09:30:00+02:00', key],
      ['/brands/northwind/products?include=nope', key],
      ['/brands/northwind/products?cursor=abc', key],
      ['/brands/northwind/products', null],
      ['/brands/southpeak/products', key],
      ['/brands/northwind/prodcts', key],
      ['/brands/nope/products', key],
      ['/brands/northwind/products', key, 'POST'],
    ];
    for (const [path, requestKey, method] of requests) {
      const response = await server.request(path, { key: requestKey, ...(method ? { method } : {}) });
      expect(guide, `${method ?? 'GET'} ${path}`).to.contain(response.text);
    }
  });

  for (const file of ['missing.js', 'index.html', 'scalar-api-reference.js.map', 'standalone.js', 'swagger-ui-bundle.js', 'package.json', '..%2Fpackage.json']) {
    it(`answers an asset not on the allow-list (${file}) with the JSON 404`, async () => {
      const response = await server.request(`${DOCS}/assets/${file}`);
      expect(response.status).to.equal(404);
      expect(response.headers.get('content-type')).to.match(/^application\/json/);
      // `scalar-api-reference.js.map` is close enough to `scalar-api-reference.js` for a did-you-mean in the message.
      expect(Object.keys(response.body).sort()).to.deep.equal(['error', 'errorCode']);
      expect(response.body.errorCode).to.equal('not_found');
      expect(response.body.error).to.match(/^No such path in this API( \(did you mean '[^']+'\?\))?\.$/);
    });
  }

  it('answers POST on a docs page with the JSON 405', async () => {
    const response = await server.request(DOCS, { method: 'POST' });
    expect(response.status).to.equal(405);
    expect(response.headers.get('allow')).to.equal('GET, HEAD');
    expect(response.body.errorCode).to.equal('method_not_allowed');
  });
});
