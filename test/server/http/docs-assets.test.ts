import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { loadScalarAssets, textAsset } from '../../../src/server/http/docs-assets.ts';

describe('docs assets', () => {
  it("serves only Scalar's standalone browser bundle, as installed, as JavaScript", () => {
    const assets = loadScalarAssets();
    expect([...assets.keys()]).to.deep.equal(['scalar-api-reference.js']);
    const bundle = assets.get('scalar-api-reference.js')!;
    expect(bundle.contentType).to.equal('text/javascript; charset=utf-8');
    const dist = dirname(createRequire(import.meta.url).resolve('@scalar/api-reference'));
    expect(bundle.body.equals(readFileSync(join(dist, 'browser/standalone.js')))).to.equal(true);
    // The standalone build defines the global the initializer calls.
    expect(bundle.body.toString('utf8')).to.contain('window.Scalar={createApiReference:');
  });

  it('holds a text asset of ours as its UTF-8 bytes', () => {
    const asset = textAsset('h1::after { content: "·"; }', 'text/css; charset=utf-8');
    expect(asset.contentType).to.equal('text/css; charset=utf-8');
    expect(asset.body).to.deep.equal(Buffer.from('h1::after { content: "·"; }', 'utf8'));
    expect(asset.body.length, 'the middle dot is two bytes').to.equal(28);
  });
});
