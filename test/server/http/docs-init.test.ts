import { expect } from 'chai';
import { runInNewContext } from 'node:vm';
import { FAVICON_SVG, INITIALIZER_JS, SETUP_JS } from '../../../src/server/http/docs-init.ts';

/** The reference page's scripts, run in a context of their own with a stand-in for the page and for Scalar. */
describe('the docs site\'s scripts and icon (docs-init.ts)', () => {
  it('starts Scalar on the reference element, with the document the page names', () => {
    const root = { getAttribute: (name: string) => (name === 'data-document-url' ? '/api/public/v1/openapi.json' : null) };
    const calls: { element: unknown; config: Record<string, unknown> }[] = [];
    runInNewContext(INITIALIZER_JS, {
      document: { getElementById: (id: string) => (id === 'reference' ? root : null) },
      Scalar: { createApiReference: (element: unknown, config: Record<string, unknown>) => calls.push({ element, config }) },
    });
    expect(calls).to.have.length(1);
    expect(calls[0]!.element).to.equal(root);
    expect(calls[0]!.config).to.include({ url: '/api/public/v1/openapi.json', documentDownloadType: 'json' });
  });

  it('configures Scalar to call nothing but the API: no web fonts, proxy, telemetry, AI agent or MCP, no stored key', () => {
    let config: Record<string, unknown> = {};
    runInNewContext(INITIALIZER_JS, {
      document: { getElementById: () => ({ getAttribute: () => '/openapi.json' }) },
      Scalar: { createApiReference: (_element: unknown, given: Record<string, unknown>) => (config = given) },
    });
    expect(JSON.parse(JSON.stringify(config))).to.deep.include({
      withDefaultFonts: false,
      proxyUrl: '',
      telemetry: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      persistAuth: false,
      hiddenClients: true,
      authentication: { preferredSecurityScheme: 'bearerAuth' },
    });
  });

  it('lets Scalar\'s zod skip its eval probe, keeping any settings already there', () => {
    const context: { __zod_globalConfig?: Record<string, unknown> } = { __zod_globalConfig: { locale: 'en' } };
    runInNewContext(SETUP_JS, context);
    expect(JSON.parse(JSON.stringify(context.__zod_globalConfig))).to.deep.equal({ locale: 'en', jitless: true });
    const fresh: { __zod_globalConfig?: Record<string, unknown> } = {};
    runInNewContext(SETUP_JS, fresh);
    expect(JSON.parse(JSON.stringify(fresh.__zod_globalConfig))).to.deep.equal({ jitless: true });
  });

  it('names no place to load from (the icon names only the SVG namespace)', () => {
    expect(FAVICON_SVG).to.match(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 32 32">\n[\s\S]*<\/svg>\n$/);
    expect(`${SETUP_JS}${INITIALIZER_JS}${FAVICON_SVG.replace('http://www.w3.org/2000/svg', '')}`).to.not.match(/https?:\/\//);
  });
});
