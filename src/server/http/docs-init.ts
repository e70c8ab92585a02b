/**
 * `docs-init.js`: starts Scalar on the reference page, configured so that the
 * page loads nothing from another origin and tells nobody it was opened:
 * - `withDefaultFonts: false`: no fonts from Scalar's font CDN (the site's
 *   stylesheet gives Scalar the system fonts);
 * - `proxyUrl: ''`: "Test Request" calls the API straight from the browser,
 *   never through Scalar's request proxy (the API and the page share an
 *   origin, so no CORS is involved);
 * - `telemetry: false`, `agent.disabled` and `mcp.disabled`: no usage
 *   reports, no "Ask AI" chat and no MCP button, which would call Scalar's
 *   services;
 * - `hiddenClients: true`: the code samples are the document's own
 *   (`x-codeSamples`: curl, the TypeScript client, Python with requests),
 *   not Scalar's generated ones, which would copy parameter examples into
 *   every request;
 * - `persistAuth: false`: the key typed into "Authentication" lives in the
 *   page only, never in the browser's storage.
 * The browser test fails on any request that leaves the server, so a Scalar
 * upgrade that adds a call home shows up there.
 */
export const INITIALIZER_JS = `'use strict';
(function () {
  var root = document.getElementById('reference');
  Scalar.createApiReference(root, {
    url: root.getAttribute('data-document-url'),
    withDefaultFonts: false,
    proxyUrl: '',
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: 'never',
    hiddenClients: true,
    persistAuth: false,
    authentication: { preferredSecurityScheme: 'bearerAuth' },
    documentDownloadType: 'json',
    defaultOpenFirstTag: false,
    hideDarkModeToggle: true,
    forceDarkModeState: 'light',
    theme: 'default',
  });
})();
`;

/**
 * `docs-setup.js`, loaded before Scalar's bundle: the bundle's zod (a schema
 * library) probes at load time whether it may compile code with
 * `Function('')`. The page's CSP refuses that (no 'unsafe-eval'), which zod
 * survives but the browser reports as a violation; zod's shared settings,
 * read from this global, let it skip the probe and never try.
 */
export const SETUP_JS = `'use strict';
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
`;

/** The site's icon: a document with a brace, in the header bar's colours. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="6" fill="#1b2330"/>
<path d="M13 8c-3 0-3 2-3 4v2c0 1-1 2-2 2 1 0 2 1 2 2v2c0 2 0 4 3 4M19 8c3 0 3 2 3 4v2c0 1 1 2 2 2-1 0-2 1-2 2v2c0 2 0 4-3 4" fill="none" stroke="#7cc4ff" stroke-width="2.2" stroke-linecap="round"/>
</svg>
`;
