import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createBrand, createTestKey, insert } from '../support/fixtures.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { launchChromium, watchPage } from './chromium.ts';

const ARTIFACTS = fileURLToPath(new URL('../../artifacts/', import.meta.url));
/** Swagger UI renders a tag per family of the registry, with its operations: give a slow CI time. */
const RENDER_TIMEOUT = 60_000;

describe('docs site in a headless browser', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  before(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    server = await startTestServer();
    browser = await launchChromium();
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

  async function openReference(hash = ''): Promise<void> {
    await page.goto(`${server.baseUrl}/docs${hash}`);
    await page.locator('h3.opblock-tag').first().waitFor({ timeout: RENDER_TIMEOUT });
  }

  it('renders every family of the registry, offline, with no error under its CSP', async () => {
    await openReference();
    const titles = server.registry.resources.map((resource) => resource.title);
    const missing: string[] = [];
    for (const title of titles) {
      const tag = page.locator(`h3.opblock-tag[data-tag=${JSON.stringify(title)}]`);
      if (!(await tag.isVisible()) || !(await tag.innerText()).includes(title)) missing.push(title);
    }
    expect(missing, 'families without a visible tag').to.deep.equal([]);
    expect(await page.locator('h3.opblock-tag').count()).to.equal(titles.length);
    expect(await page.locator('button.authorize').isVisible(), 'the Authorize button').to.equal(true);
    expect(await page.locator('.operation-filter-input').isVisible(), 'the filter box').to.equal(true);
    await page.screenshot({ path: `${ARTIFACTS}docs-page.png`, fullPage: true });
    expect(problems).to.deep.equal([]);
  });

  it('narrows the families with the filter box', async () => {
    await openReference();
    // Swagger UI keeps the tags whose name or one of whose paths contains the phrase, ignoring case.
    const expected = server.registry.resources
      .filter((resource) => resource.title.toLowerCase().includes('carton') || resource.path.includes('carton'))
      .map((resource) => resource.title);
    expect(expected).to.include('Carton Sizes');
    await page.locator('.operation-filter-input').fill('carton');
    await page.waitForFunction((count) => document.querySelectorAll('h3.opblock-tag').length === count, expected.length, { timeout: RENDER_TIMEOUT });
    const shown = await page.locator('h3.opblock-tag').evaluateAll((tags) => tags.map((tag) => tag.getAttribute('data-tag')));
    expect(shown).to.have.members(expected);
    expect(problems).to.deep.equal([]);
  });

  it('calls the API from the page with a key given to Authorize', async () => {
    const brand = await createBrand();
    const { key } = await createTestKey({ brands: [brand.slug] });
    await insert('carton-sizes', brand.id, [{ name: 'Browser carton' }]);
    const { body: openApi } = await server.request('/openapi.json');
    const { tags: [tag], operationId } = openApi.paths['/brands/{brand}/carton-sizes'].get as { tags: string[]; operationId: string };
    // Deep linking opens the operation straight from the URL; Swagger UI writes spaces as _ in element ids.
    await openReference(`#/${encodeURIComponent(tag!)}/${operationId}`);
    const operation = page.locator(`#operations-${tag!.replaceAll(' ', '_')}-${operationId}`);
    await operation.locator('.opblock-body').waitFor({ timeout: RENDER_TIMEOUT });

    await page.locator('button.authorize').click();
    await page.locator('.auth-container input').fill(key);
    await page.locator('.auth-btn-wrapper button.authorize').click();
    await page.locator('.auth-btn-wrapper button.btn-done').click();

    await operation.locator('button.try-out__btn').click();
    await operation.locator('tr[data-param-name="brand"] input').fill(brand.slug);
    await operation.locator('button.execute').click();
    const liveResponse = operation.locator('.live-responses-table .response');
    await liveResponse.waitFor({ timeout: RENDER_TIMEOUT });
    expect((await liveResponse.locator('.response-col_status').innerText()).trim()).to.equal('200');
    expect(await liveResponse.locator('.response-col_description').innerText()).to.contain('Browser carton');
    expect(problems).to.deep.equal([]);
  });

  it('serves the getting-started page, styled, with a link back to the reference', async () => {
    await page.goto(`${server.baseUrl}/docs/getting-started`);
    expect(await page.locator('h1').innerText()).to.equal('Getting started');
    // The stylesheet is a file of ours: a dark bar proves it loaded under the page's CSP.
    const barColour = await page.locator('.docs-bar').evaluate((bar) => getComputedStyle(bar).backgroundColor);
    expect(barColour).to.equal('rgb(27, 35, 48)');
    await page.screenshot({ path: `${ARTIFACTS}getting-started.png`, fullPage: true });

    await page.locator('.docs-bar nav a', { hasText: 'API reference' }).click();
    await page.locator('h3.opblock-tag').first().waitFor({ timeout: RENDER_TIMEOUT });
    expect(new URL(page.url()).pathname).to.equal('/api/public/v1/docs');
    expect(problems).to.deep.equal([]);
  });

  it('links from the reference to the getting-started page', async () => {
    await openReference();
    await page.locator('.docs-bar nav a', { hasText: 'Getting started' }).click();
    await page.locator('h1', { hasText: 'Getting started' }).waitFor();
    expect(new URL(page.url()).pathname).to.equal('/api/public/v1/docs/getting-started');
    expect(problems).to.deep.equal([]);
  });
});
