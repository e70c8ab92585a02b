import { expect } from 'chai';
import { createPathSuggester } from '../../../src/server/http/path-suggestion.ts';

describe('path suggestions for a 404', () => {
  const suggest = createPathSuggester([
    '/api/public/v1',
    '/api/public/v1/openapi.json',
    '/api/public/v1/docs',
    '/api/public/v1/brands/:brand',
    '/api/public/v1/brands/:brand/products',
    '/api/public/v1/brands/:brand/products/changes',
    '/api/public/v1/brands/:brand/products/:id',
    '/api/public/v1/brands/:brand/product-relations',
    '/api/public/v1/brands/:brand/notes',
    '/healthz',
  ]);

  it('suggests the family a typo was meant to be, keeping the path\'s own brand and id', () => {
    expect(suggest('/api/public/v1/brands/acme/prodcts')).to.equal('/api/public/v1/brands/acme/products');
    expect(suggest('/api/public/v1/brands/acme/prodcuts/123')).to.equal('/api/public/v1/brands/acme/products/123');
    // A path some route has (here `/products/:id`, whose id check answers it) is never "corrected".
    expect(suggest('/api/public/v1/brands/acme/products/chnages')).to.equal(null);
    expect(suggest('/api/public/v1/brands/acme/product-relation')).to.equal('/api/public/v1/brands/acme/product-relations');
  });

  it('suggests the exact spelling for another letter case, a trailing slash or an empty segment', () => {
    expect(suggest('/api/public/v1/brands/acme/Products')).to.equal('/api/public/v1/brands/acme/products');
    expect(suggest('/api/public/v1/brands/acme/products/')).to.equal('/api/public/v1/brands/acme/products');
    expect(suggest('/api/public/v1/brands//acme/products')).to.equal('/api/public/v1/brands/acme/products');
    expect(suggest('/healthz/')).to.equal('/healthz');
    expect(suggest('/api/public/v1/')).to.equal('/api/public/v1');
  });

  it('takes the closest of several candidates', () => {
    expect(suggest('/api/public/v1/brands/acme/notess')).to.equal('/api/public/v1/brands/acme/notes');
    expect(suggest('/api/public/v2/brands/acme/products')).to.equal('/api/public/v1/brands/acme/products');
  });

  it('suggests nothing when nothing is close, or for a path that is far too long', () => {
    for (const path of ['/', '/favicon.ico', '/api/public/v1/brands/acme/invoices', '/api/public/v1/brands/acme/products/1/2/3', '/nope']) {
      expect(suggest(path), path).to.equal(null);
    }
    expect(suggest(`/api/public/v1/brands/acme/prodcts${'/x'.repeat(300)}`)).to.equal(null);
    expect(suggest('/api/public/v1/brands/acme/products')).to.equal(null);
  });
});
