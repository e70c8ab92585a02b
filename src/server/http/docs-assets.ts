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
 * The only files of `swagger-ui-dist` the site serves: the bundle, its
 * stylesheet and an icon (so the browser does not ask for `/favicon.ico`).
 * The standalone preset is not needed: the page has its own header bar.
 */
const SWAGGER_UI_FILES: Readonly<Record<string, string>> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** Reads the allow-listed files from the installed package; a missing one stops start-up. */
export function loadSwaggerUiAssets(): ReadonlyMap<string, DocsAsset> {
  const folder = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return new Map(Object.entries(SWAGGER_UI_FILES).map(([name, contentType]) => [
    name,
    { body: staticBody(readFileSync(join(folder, name))), contentType },
  ]));
}

/** One of our own text assets, held as a string in the source. */
export function textAsset(text: string, contentType: string): DocsAsset {
  return { body: staticBody(Buffer.from(text, 'utf8')), contentType };
}
