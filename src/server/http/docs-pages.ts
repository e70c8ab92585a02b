/**
 * The docs site's own files: the reference and the guides' HTML pages, the Swagger UI initializer
 * and the site's stylesheet. Scripts and styles are separate files, never
 * inline, so the pages work under a Content-Security-Policy with no
 * 'unsafe-inline' at all. Every URL is absolute-path (no host): the site
 * loads nothing from elsewhere, and no link depends on where the page is.
 */

const SITE_NAME = 'Brand Catalog Read API';

/** Where the site's pages and files live, under the API's base path. */
export function docsPaths(basePath: string) {
  const docs = `${basePath}/docs`;
  return {
    reference: docs,
    /** A guide's page: `docs/guides/<slug>.md`. */
    guide: (slug: string) => `${docs}/${slug}`,
    openApi: `${basePath}/openapi.json`,
    asset: (file: string) => `${docs}/assets/${file}`,
  };
}
type DocsPaths = ReturnType<typeof docsPaths>;

/** A guide of the site: its slug (the page's last path segment) and the short name the header bar shows. */
export interface GuideLink {
  readonly slug: string;
  readonly label: string;
}

/** The header bar: the reference, every guide, the document; `current` is the page's own URL. */
function header({ paths, guides, current }: { paths: DocsPaths; guides: readonly GuideLink[]; current: string }): string {
  const link = (href: string, text: string) => `<a href="${href}"${href === current ? ' aria-current="page"' : ''}>${text}</a>`;
  const links = [link(paths.reference, 'API reference'), ...guides.map((guide) => link(paths.guide(guide.slug), guide.label))];
  return `<header class="docs-bar">
  <a class="docs-bar-name" href="${paths.reference}">${SITE_NAME}</a>
  <nav>${links.join('')}<a href="${paths.openApi}">openapi.json</a></nav>
</header>`;
}

function head(paths: DocsPaths, title: string, stylesheets: readonly string[]): string {
  return `<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${SITE_NAME}</title>
<link rel="icon" type="image/png" href="${paths.asset('favicon-32x32.png')}">
${stylesheets.map((file) => `<link rel="stylesheet" href="${paths.asset(file)}">`).join('\n')}`;
}

/** The reference: Swagger UI over the served OpenAPI document, started by `docs-init.js`. */
export function referencePage(paths: DocsPaths, guides: readonly GuideLink[]): string {
  return `<!doctype html>
<html lang="en">
<head>
${head(paths, 'API reference', ['swagger-ui.css', 'docs.css'])}
</head>
<body>
${header({ paths, guides, current: paths.reference })}
<noscript><p class="docs-noscript">The reference needs JavaScript. The OpenAPI document itself is at <a href="${paths.openApi}">${paths.openApi}</a>.</p></noscript>
<main id="swagger-ui" data-spec-url="${paths.openApi}"></main>
<script src="${paths.asset('swagger-ui-bundle.js')}"></script>
<script src="${paths.asset('docs-init.js')}"></script>
</body>
</html>
`;
}

/** A guide's page: its markdown already rendered to HTML, titled by its first heading. */
export function guidePage({ paths, guides, guide, title, articleHtml }: {
  paths: DocsPaths;
  guides: readonly GuideLink[];
  guide: GuideLink;
  title: string;
  articleHtml: string;
}): string {
  return `<!doctype html>
<html lang="en">
<head>
${head(paths, title, ['docs.css'])}
</head>
<body>
${header({ paths, guides, current: paths.guide(guide.slug) })}
<main class="docs-article">
${articleHtml}
</main>
</body>
</html>
`;
}

/**
 * Starts Swagger UI. `validatorUrl: null` keeps it from sending the document
 * to swagger.io; `docExpansion: 'none'` shows the 93 families as a list of
 * tags to open one by one, and the filter box narrows them by name.
 */
export const INITIALIZER_JS = `'use strict';
(function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-spec-url'),
    domNode: root,
    layout: 'BaseLayout',
    deepLinking: true,
    docExpansion: 'none',
    filter: true,
    validatorUrl: null,
    displayRequestDuration: true,
    tryItOutEnabled: false,
  });
})();
`;

/** The header bar over every page, and the guides' articles. */
export const DOCS_CSS = `:root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --accent: #0b5cad; --bar: #1b2330; }
body { margin: 0; color: var(--ink); font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.docs-bar { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0.5rem 1.5rem;
  padding: 0.75rem 1.5rem; background: var(--bar); }
.docs-bar a { color: #e6edf3; text-decoration: none; }
.docs-bar a:hover, .docs-bar a:focus-visible { text-decoration: underline; }
.docs-bar-name { font-weight: 600; font-size: 1.1rem; }
.docs-bar nav { display: flex; gap: 1.25rem; font-size: 0.95rem; }
.docs-bar nav a[aria-current="page"] { color: #fff; font-weight: 600; border-bottom: 2px solid #7cc4ff; }
.docs-noscript { max-width: 46rem; margin: 2rem auto; padding: 0 1.5rem; }
.docs-article { max-width: 46rem; margin: 0 auto; padding: 1.5rem 1.5rem 4rem; }
.docs-article h1 { font-size: 2rem; margin: 0.5rem 0 1rem; }
.docs-article h2 { font-size: 1.35rem; margin: 2rem 0 0.5rem; padding-bottom: 0.25rem; border-bottom: 1px solid var(--line); }
.docs-article a { color: var(--accent); }
.docs-article code { font: 0.875em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f0f3f6;
  padding: 0.1em 0.3em; border-radius: 4px; }
.docs-article pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem 1rem; overflow-x: auto; }
.docs-article pre code { background: none; padding: 0; }
.docs-article table { border-collapse: collapse; margin: 0.75rem 0; font-size: 0.95rem; }
.docs-article th, .docs-article td { border: 1px solid var(--line); padding: 0.3rem 0.6rem; text-align: left; vertical-align: top; }
.docs-article th { background: #f6f8fa; }
.docs-article li { margin: 0.2rem 0; }
`;
