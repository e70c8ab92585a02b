import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { loadSwaggerUiAssets, textAsset } from '../../../src/server/http/docs-assets.ts';

describe('docs assets', () => {
  it('serves only Swagger UI\'s bundle, stylesheet and icon, as installed, each with its type', () => {
    const assets = loadSwaggerUiAssets();
    expect([...assets.keys()]).to.deep.equal(['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png']);
    expect([...assets.values()].map((asset) => asset.contentType)).to.deep.equal(['text/javascript; charset=utf-8', 'text/css; charset=utf-8', 'image/png']);
    const installed = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    for (const [file, asset] of assets) {
      expect(asset.body.length, file).to.be.above(0);
      expect(asset.body.equals(readFileSync(join(installed, file))), file).to.equal(true);
    }
  });

  it('holds a text asset of ours as its UTF-8 bytes', () => {
    const asset = textAsset('h1::after { content: "·"; }', 'text/css; charset=utf-8');
    expect(asset.contentType).to.equal('text/css; charset=utf-8');
    expect(asset.body).to.deep.equal(Buffer.from('h1::after { content: "·"; }', 'utf8'));
    expect(asset.body.length, 'the middle dot is two bytes').to.equal(28);
  });
});
