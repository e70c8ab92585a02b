import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { staticBody } from '../middleware/content-codings.ts';

/** A file of the docs site, read once at start-up and served from memory (and compressed once per coding: `staticBody`). */
export interface DocsAsset {
  readonly body: Buffer;
  readonly contentType: string;
}

/**
 * The one file of `@scalar/api-reference` the site serves: its standalone
 * browser bundle, which carries its own styles (it adds them to the page as
 * a `<style>` element, see the reference's CSP in docs-site.ts). Its fonts
 * and its chunked ESM build are not served: the page uses system fonts
 * (`withDefaultFonts: false`), and the bundle needs no chunk.
 */
const SCALAR_BUNDLE = { name: 'scalar-api-reference.js', file: 'browser/standalone.js' } as const;

/** Reads Scalar's bundle from the installed package; a missing file stops start-up. */
export function loadScalarAssets(): ReadonlyMap<string, DocsAsset> {
  // The package exports no `package.json`: its main entry (`dist/index.js`) locates `dist/`.
  const dist = dirname(createRequire(import.meta.url).resolve('@scalar/api-reference'));
  return new Map([[SCALAR_BUNDLE.name, { body: staticBody(readFileSync(join(dist, SCALAR_BUNDLE.file))), contentType: 'text/javascript; charset=utf-8' }]]);
}

/** One of our own text assets, held as a string in the source. */
export function textAsset(text: string, contentType: string): DocsAsset {
  return { body: staticBody(Buffer.from(text, 'utf8')), contentType };
}
