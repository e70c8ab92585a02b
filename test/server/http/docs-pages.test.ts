import { expect } from 'chai';
import { docsPaths, guidePage, referencePage } from '../../../src/server/http/docs-pages.ts';

/** Every `src` and `href` of a page. */
const urlsOf = (html: string): string[] => [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);

/** The links of the header bar marked as the current page. */
const currentOf = (html: string): string[] => [...html.matchAll(/<a href="([^"]*)" aria-current="page">/g)].map((match) => match[1]!);

describe('docs pages', () => {
  const paths = docsPaths('/api/public/v1');
  const guides = [{ slug: 'getting-started', label: 'Getting started' }, { slug: 'syncing', label: 'Syncing' }];
  const guide = (articleHtml: string, at = 0) => guidePage({ paths, guides, guide: guides[at]!, title: 'Getting started', articleHtml });

  it('places the pages, the document and the assets under the base path', () => {
    expect(paths.reference).to.equal('/api/public/v1/docs');
    expect(paths.guide('getting-started')).to.equal('/api/public/v1/docs/getting-started');
    expect(paths.openApi).to.equal('/api/public/v1/openapi.json');
    expect(paths.asset('docs.css')).to.equal('/api/public/v1/docs/assets/docs.css');
    expect(docsPaths('/other').asset('docs-init.js')).to.equal('/other/docs/assets/docs-init.js');
  });

  it('starts Scalar on the reference page from files of the site, over the served document', () => {
    const html = referencePage(paths, guides);
    expect(html).to.match(/^<!doctype html>/);
    expect(html).to.contain(`<main id="reference" data-document-url="${paths.openApi}">`);
    // Scalar mounts itself, with its defaults (web fonts included), on either of these: the page has neither.
    expect(html).to.not.match(/data-spec-url|id="api-reference"/);
    expect([...html.matchAll(/<script src="([^"]*)"><\/script>/g)].map((match) => match[1])).to.deep.equal([
      paths.asset('docs-setup.js'),
      paths.asset('scalar-api-reference.js'),
      paths.asset('docs-init.js'),
    ]);
    expect([...html.matchAll(/rel="stylesheet" href="([^"]*)"/g)].map((match) => match[1])).to.deep.equal([paths.asset('docs.css')]);
    expect(html).to.contain('<body class="docs-reference">');
    expect(currentOf(html)).to.deep.equal([paths.reference]);
  });

  it('wraps a rendered guide in the same header, with only the site\'s stylesheet, every guide linked and its own marked current', () => {
    const html = guide('<h1>Getting started</h1>\n<p>First, a key.</p>');
    expect(html).to.contain('<main class="docs-article">\n<h1>Getting started</h1>\n<p>First, a key.</p>\n</main>');
    expect(html).to.contain('<title>Getting started · Brand Catalog Read API</title>');
    expect([...html.matchAll(/rel="stylesheet" href="([^"]*)"/g)].map((match) => match[1])).to.deep.equal([paths.asset('docs.css')]);
    expect(html).to.not.contain('<script');
    expect(currentOf(html)).to.deep.equal([paths.guide('getting-started')]);
    expect(urlsOf(html)).to.include.members([paths.reference, paths.guide('syncing'), paths.openApi]);
    expect(currentOf(guide('<p>x</p>', 1))).to.deep.equal([paths.guide('syncing')]);
  });

  it('loads nothing from elsewhere and has no inline script or style, so a strict CSP allows both pages', () => {
    for (const html of [referencePage(paths, guides), guide('<p>Guide</p>')]) {
      expect(urlsOf(html).filter((url) => !url.startsWith('/api/public/v1/')), 'URLs off the site').to.deep.equal([]);
      expect(html).to.not.match(/<style|\sstyle="|\son[a-z]+="/);
      expect(html).to.not.match(/<script(?![^>]*\ssrc=)[^>]*>/);
    }
  });
});
