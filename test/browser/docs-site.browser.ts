import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { GUIDES } from '../../src/server/http/docs-site.ts';
import { createBrand, createTestKey, insert } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { launchChromium, watchPage } from './chromium.ts';

const ARTIFACTS = fileURLToPath(new URL('../../artifacts/', import.meta.url));
/** Scalar renders a section per family of the registry: give a slow CI time. */
const RENDER_TIMEOUT = 60_000;
const CARTON_SIZES_LIST = 'api-1/tag/carton-sizes/GET/brands/{brand}/carton-sizes';

describe('docs site in a headless browser', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let doc: { paths: Record<string, { get: { tags: string[] } }> };

  before(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    server = await startTestServer();
    browser = await launchChromium();
    doc = (await server.request('/openapi.json')).body;
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    problems = watchPage(page, server.origin);
  });
  afterEach(() => context.close());

  /** The sidebar's entry of each family (a tag), by its id. */
  const TAG_ENTRIES = 'li[data-sidebar-id^="api-1/tag/"]:not([data-sidebar-id*="/GET/"])';

  async function openReference(hash = ''): Promise<void> {
    await page.goto(`${server.baseUrl}/docs${hash}`);
    await page.locator(TAG_ENTRIES).first().waitFor({ timeout: RENDER_TIMEOUT });
  }

  /** An operation's section, rendered: opened from its sidebar link. */
  async function openOperation(id: string): Promise<Locator> {
    await openReference(`#${id.replace(/^api-1\//, '')}`);
    const section = page.locator(`section[id="${id}"]`);
    await section.waitFor({ timeout: RENDER_TIMEOUT });
    await section.scrollIntoViewIfNeeded();
    return section;
  }

  it('renders every family of the registry with all its operations, offline, with no error under its CSP', async () => {
    await openReference();
    const titles = await page.locator(TAG_ENTRIES).evaluateAll((entries) => entries.map((entry) => (entry as HTMLElement).innerText.split('\n')[0]!.trim()));
    expect(titles).to.have.members(server.registry.resources.map((resource) => resource.title));
    await page.screenshot({ path: `${ARTIFACTS}docs-reference.png` });
    // The sidebar groups the families by area (x-tagGroups): each area's title, then its families, in the document's order.
    const sidebar = await page.locator('aside.t-doc__sidebar').innerText();
    const groups = (doc as unknown as { 'x-tagGroups': { name: string; tags: string[] }[] })['x-tagGroups'];
    const at = (text: string): number => sidebar.search(new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    const positions = groups.flatMap((group) => [at(group.name), at(group.tags[0]!)]);
    expect(positions.every((position) => position >= 0), `sidebar:\n${sidebar.slice(0, 400)}`).to.equal(true);
    expect(positions).to.deep.equal([...positions].sort((a, b) => a - b));
    // The header bar links every guide (each guide's test below starts from a guide's page, lighter than this one).
    const bar = await page.locator('.docs-bar nav a').evaluateAll((links) => links.map((link) => [(link as HTMLElement).innerText.trim(), new URL((link as HTMLAnchorElement).href).pathname]));
    expect(bar).to.deep.include.members(GUIDES.map((guide) => [guide.label, `/api/public/v1/docs/${guide.slug}`]));

    // Open every family in the sidebar: each lists its operations, as the document has them.
    await page.locator(`${TAG_ENTRIES} > div > button[aria-expanded]`).evaluateAll((buttons) => buttons.forEach((button) => (button as HTMLElement).click()));
    const expected = Object.entries(doc.paths).map(([path, item]) => `${item.get.tags[0]} GET ${path}`).sort();
    await page.waitForFunction((count) => document.querySelectorAll('li[data-sidebar-id*="/GET/"]').length >= count, expected.length, { timeout: RENDER_TIMEOUT });
    const shown = await page.locator(TAG_ENTRIES).evaluateAll((entries) => entries.flatMap((entry) => {
      const title = (entry as HTMLElement).innerText.split('\n')[0]!.trim();
      return [...entry.querySelectorAll('li[data-sidebar-id*="/GET/"]')].map((operation) => `${title} GET ${operation.getAttribute('data-sidebar-id')!.split('/GET')[1]}`);
    }));
    expect(shown.sort()).to.deep.equal(expected);
    expect(problems).to.deep.equal([]);
  });

  it('shows an operation with its code samples: curl, the TypeScript client, Python with requests', async () => {
    const section = await openOperation(CARTON_SIZES_LIST);
    const samples: Record<string, string> = {};
    for (const label of ['curl', 'TypeScript client', 'Python (requests)']) {
      await section.getByTestId('client-picker').click();
      await page.getByRole('option', { name: label }).or(page.getByRole('button', { name: label })).first().click();
      expect(await section.getByTestId('client-picker').innerText()).to.contain(label);
      samples[label] = await section.locator('pre, .scalar-codeblock-pre').first().innerText();
    }
    expect(samples.curl).to.contain('curl -s "$API_URL/api/public/v1/brands/northwind/carton-sizes?limit=10"');
    expect(samples['TypeScript client']).to.contain("catalog.list('carton-sizes', { limit: 100 })");
    expect(samples['Python (requests)']).to.contain('import requests');
    await section.screenshot({ path: `${ARTIFACTS}docs-operation.png` });
    expect(problems).to.deep.equal([]);
  });

  it('tries an operation with a key: the 200 is shown, and only what the user set is sent', async () => {
    const brand = await createBrand();
    const { key } = await createTestKey({ brands: [brand.slug] });
    await insert('carton-sizes', brand.id, [{ name: 'Browser carton' }]);
    const section = await openOperation(CARTON_SIZES_LIST);
    await section.getByRole('button', { name: /Test Request/ }).click();
    const client = page.getByRole('dialog');
    await client.getByPlaceholder('Token').first().fill(key);
    // The brand is the one path parameter, filled with the demo brand's slug: the user puts theirs.
    await client.locator('.code-input-lite__editor', { hasText: 'northwind' }).click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(brand.slug);

    const sent: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/public/v1/brands/')) sent.push(request);
    });
    await client.locator('button[data-addressbar-action="send"]:visible').click();
    await client.getByText('Browser carton').first().waitFor({ timeout: RENDER_TIMEOUT });
    expect(await client.getByText('200 OK').first().isVisible()).to.equal(true);
    expect(sent).to.have.length(1);
    // No query string at all: no limit, fields, include or filter the user did not type.
    expect(sent[0]!.url()).to.equal(`${server.origin}/api/public/v1/brands/${brand.slug}/carton-sizes`);
    expect(await sent[0]!.headerValue('authorization')).to.equal(`Bearer ${key}`);
    await page.screenshot({ path: `${ARTIFACTS}docs-try-it.png` });
    expect(problems).to.deep.equal([]);
  });

  for (const guide of GUIDES) {
    it(`renders the guide "${guide.label}", styled, linked from the header bar`, async () => {
      // From another guide's page: the same header bar as the reference's (checked above), without rendering 93 families first.
      const from = GUIDES.find((other) => other.slug !== guide.slug)!;
      await page.goto(`${server.baseUrl}/docs/${from.slug}`);
      await page.locator('.docs-bar nav').getByRole('link', { name: guide.label, exact: true }).click();
      await page.waitForURL((url) => url.pathname.endsWith(`/docs/${guide.slug}`));
      await page.locator('main.docs-article h1').waitFor();
      expect(new URL(page.url()).pathname).to.equal(`/api/public/v1/docs/${guide.slug}`);
      expect(await page.locator('.docs-bar nav a[aria-current="page"]').innerText()).to.equal(guide.label);
      // The stylesheet is a file of ours: a dark bar proves it loaded under the page's CSP.
      expect(await page.locator('.docs-bar').evaluate((bar) => getComputedStyle(bar).backgroundColor)).to.equal('rgb(27, 35, 48)');
      expect(await page.locator('main.docs-article h2').count(), 'sections').to.be.greaterThan(0);
      await page.screenshot({ path: `${ARTIFACTS}docs-guide-${guide.slug}.png`, fullPage: true });
      expect(problems).to.deep.equal([]);
    });
  }
});
