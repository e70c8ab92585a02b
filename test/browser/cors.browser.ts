import { createServer, type Server } from 'node:http';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createBrand, createTestKey, insert } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { launchChromium } from './chromium.ts';

const ARTIFACTS = fileURLToPath(new URL('../../artifacts/', import.meta.url));

/**
 * A page of another origin (another port) that reads the API as a web app
 * would: `fetch` with the key in `Authorization`, which makes the browser
 * send a preflight first. It shows what it read, for the screenshot.
 */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Another origin</title>
<style>body { font: 14px system-ui, sans-serif; margin: 2em; } pre { background: #f3f3f3; padding: 1em; white-space: pre-wrap; }</style>
</head><body>
<h1>A page of another origin reading the API</h1>
<pre id="out">nothing read yet</pre>
<script>
  window.readApi = async (url, key) => {
    let result;
    try {
      const response = await fetch(url, { headers: { Authorization: 'Bearer ' + key } });
      result = {
        status: response.status,
        body: await response.json(),
        etag: response.headers.get('ETag'),
        rateLimit: response.headers.get('RateLimit'),
        requestId: response.headers.get('X-Request-Id'),
      };
    } catch (error) {
      result = { error: error.name, message: error.message };
    }
    document.getElementById('out').textContent += '\\n\\nGET ' + url + '\\n' + JSON.stringify(result, null, 2);
    return result;
  };
</script>
</body></html>`;

interface ReadResult {
  status?: number;
  body?: any;
  etag?: string | null;
  rateLimit?: string | null;
  requestId?: string | null;
  error?: string;
}

describe('CORS in a headless browser: a page of another origin reads the API', () => {
  let pageServer: Server;
  let pageOrigin: string;
  let allowing: TestServer;
  let refusing: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let consoleErrors: string[];
  let key: string;
  let brandSlug: string;

  before(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    pageServer = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      response.end(PAGE);
    });
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
    // Both on 127.0.0.1 as well, on ports of their own: other origins than the page's.
    allowing = await startTestServer({ corsOrigins: [pageOrigin] });
    refusing = await startTestServer({ corsOrigins: ['https://app.example.com'] });
    browser = await launchChromium();
    const brand = await createBrand();
    brandSlug = brand.slug;
    ({ key } = await createTestKey({ brands: [brand.slug] }));
    await insert('carton-sizes', brand.id, [{ name: 'Cross-origin carton' }]);
  });
  after(async () => {
    await browser?.close();
    await allowing?.close();
    await refusing?.close();
    await new Promise((resolve) => pageServer?.close(resolve));
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    page = await context.newPage();
    consoleErrors = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto(`${pageOrigin}/`);
  });
  afterEach(() => context.close());

  const read = (url: string, withKey: string): Promise<ReadResult> => page.evaluate(([u, k]) => (window as any).readApi(u, k), [url, withKey] as const);

  it('reads a list, its ETag and its RateLimit when the origin is allowed, after a preflight', async () => {
    const url = `${allowing.baseUrl}/brands/${brandSlug}/carton-sizes`;
    const result = await read(url, key);
    expect(result.error, JSON.stringify(result)).to.equal(undefined);
    expect(result.status).to.equal(200);
    expect(result.body.items.map((item: { name: string }) => item.name)).to.deep.equal(['Cross-origin carton']);
    expect(result.etag).to.match(/^"[\w-]+"$/);
    expect(result.rateLimit).to.match(/^"default";r=\d+;t=\d+$/);
    expect(result.requestId).to.be.a('string').and.not.equal('');
    // The browser asked first: the key in Authorization is not a simple request.
    const answered = allowing.logs.filter((line) => line.msg === 'request').map((line) => `${line.method} ${line.status}`);
    expect(answered).to.deep.equal(['OPTIONS 204', 'GET 200']);

    // An error is readable too: the page learns why, not only that it failed.
    const refused = await read(url, `${key.slice(0, -4)}AAAA`);
    expect(refused.status, JSON.stringify(refused)).to.equal(401);
    expect(refused.body.errorCode).to.equal('unauthorized');
    expect(consoleErrors.filter((text) => /CORS|Access-Control/i.test(text))).to.deep.equal([]);
    await page.screenshot({ path: `${ARTIFACTS}cors-page.png`, fullPage: true });
  });

  it('fails with a TypeError in the page when the origin is not allowed, and the key is never sent', async () => {
    const result = await read(`${refusing.baseUrl}/brands/${brandSlug}/carton-sizes`, key);
    expect(result.error, JSON.stringify(result)).to.equal('TypeError');
    expect(result.status).to.equal(undefined);
    // The preflight was refused (405, no Access-Control-Allow-Origin), so the GET with the key never left the browser.
    const answered = refusing.logs.filter((line) => line.msg === 'request').map((line) => `${line.method} ${line.status}`);
    expect(answered).to.deep.equal(['OPTIONS 405']);
    expect(consoleErrors.join('\n')).to.match(/CORS/);
  });
});
