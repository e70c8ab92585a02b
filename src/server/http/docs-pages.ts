/**
 * The docs site's HTML pages: the reference and the guides. Scripts and
 * styles are files of their own (`docs-init.ts`, `docs-styles.ts`), never
 * inline, so the pages need no 'unsafe-inline' for themselves. Every URL is absolute-path (no host): the site
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
<link rel="icon" type="image/svg+xml" href="${paths.asset('favicon.svg')}">
${stylesheets.map((file) => `<link rel="stylesheet" href="${paths.asset(file)}">`).join('\n')}`;
}

/**
 * The reference: Scalar over the served OpenAPI document, started by
 * `docs-init.js`. The element's attributes are named so that Scalar's own
 * start-up does not find them (it mounts itself, with its defaults, on an
 * element with `data-spec-url` or the id `api-reference`).
 */
export function referencePage(paths: DocsPaths, guides: readonly GuideLink[]): string {
  return `<!doctype html>
<html lang="en">
<head>
${head(paths, 'API reference', ['docs.css'])}
</head>
<body class="docs-reference">
${header({ paths, guides, current: paths.reference })}
<noscript><p class="docs-noscript">The reference needs JavaScript. The OpenAPI document itself is at <a href="${paths.openApi}">${paths.openApi}</a>.</p></noscript>
<main id="reference" data-document-url="${paths.openApi}"></main>
<script src="${paths.asset('docs-setup.js')}"></script>
<script src="${paths.asset('scalar-api-reference.js')}"></script>
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
