import Router from '@koa/router';
import { expect } from 'chai';
import fc from 'fast-check';
import { createRouteTable } from '../../../src/server/http/route-table.ts';

const BASE = '/api/public/v1';
const PATTERNS = [
  '/brands/:brand',
  '/brands/:brand/products',
  '/brands/:brand/products/:id',
  '/brands/:brand/carton-sizes',
  '/brands/:brand/carton-sizes/:id',
  '/brands/:brand/order-items/:id',
  '/brands/:brand/kits',
  '/suppliers/:brand',
];

/** What @koa/router (the table's model) matches for `path`: the pattern and its parameters, or null. */
function routerMatch(router: Router, path: string): { pattern: string; params: Record<string, string> } | null {
  const matched = router.match(path, 'GET');
  const layer = matched.pathAndMethod[0];
  if (!layer) return null;
  return { pattern: String(layer.path), params: layer.params(path, layer.captures(path), {}) };
}

function tableMatch(path: string): { pattern: string; params: Record<string, string> } | null {
  const found = table.match(path);
  return found ? { pattern: `${BASE}${found.route.path}`, params: found.params } : null;
}

const table = createRouteTable({ base: BASE, routes: PATTERNS.map((path) => ({ path })) });
// The contract's exact matching (CONTRACT.md §4) is @koa/router's `sensitive` and `strict`.
const router = new Router({ prefix: BASE, sensitive: true, strict: true });
for (const path of PATTERNS) router.get(path, () => undefined);

describe('engine: route table', () => {
  it('finds a route and decodes its parameters', () => {
    expect(table.match(`${BASE}/brands/acme/products/abc`)).to.deep.equal({ route: { path: '/brands/:brand/products/:id' }, params: { brand: 'acme', id: 'abc' } });
    expect(table.match(`${BASE}/brands/a%20b/products`)?.params).to.deep.equal({ brand: 'a b' });
    expect(table.match(`${BASE}/suppliers/acme`)?.route.path).to.equal('/suppliers/:brand');
  });

  it('matches exactly: no trailing slash, no other letter case; keeps a malformed encoding as it is', () => {
    expect(table.match(`${BASE}/brands/acme/products`)?.route.path).to.equal('/brands/:brand/products');
    for (const path of [`${BASE}/brands/acme/products/`, `${BASE}/brands/acme/products//`, `${BASE}/brands/acme/`, `${BASE}/brands/acme/products/abc/`, '/API/Public/V1/BRANDS/Acme/PRODUCTS', `${BASE}/Brands/acme/products`, `${BASE}/brands/acme/Products`]) {
      expect(table.match(path), path).to.equal(null);
    }
    // A parameter keeps its case: the brand slug and the id are the route's to judge.
    expect(table.match(`${BASE}/brands/Acme/products`)?.params).to.deep.equal({ brand: 'Acme' });
    expect(table.match(`${BASE}/brands/%E0%A4%A/products`)?.params).to.deep.equal({ brand: '%E0%A4%A' });
  });

  it('matches nothing for empty parameters, extra segments and other bases', () => {
    for (const path of ['', '/', BASE, `${BASE}/`, `${BASE}/brands`, `${BASE}/brands//products`, `${BASE}/brands/acme/products/a/b`, `/api/public/v2/brands/acme`, `${BASE}/brands/acme/nope`]) {
      expect(table.match(path), path).to.equal(null);
    }
  });

  it('does not fold non-ASCII letters into ASCII ones (the Kelvin sign is not k)', () => {
    expect(table.match(`${BASE}/brands/acme/kits`)?.route.path).to.equal('/brands/:brand/kits');
    expect(table.match(`${BASE}/brands/acme/\u212aits`)).to.equal(null);
    expect(table.match(`${BASE}/brands/acme/KITS`)).to.equal(null);
  });

  it('refuses a pattern defined twice', () => {
    expect(() => createRouteTable({ base: BASE, routes: [{ path: '/a/:x' }, { path: '/a/:x' }] })).to.throw(/defined twice/);
  });

  it('answers as @koa/router does for random paths built from real segments', () => {
    const words = ['api', 'API', 'public', 'v1', 'brands', 'Brands', 'products', 'carton-sizes', 'order-items', 'suppliers', 'kits', 'KITS', '\u212aits', 'acme', '', '%41cme', '%zz', 'a%2Fb', '\u212a', '.', '..'];
    const path = fc.tuple(fc.boolean(), fc.array(fc.constantFrom(...words), { minLength: 0, maxLength: 7 }), fc.boolean())
      .map(([based, segments, slash]) => `${based ? BASE : ''}/${segments.join('/')}${slash ? '/' : ''}`);
    fc.assert(fc.property(path, (candidate) => {
      expect(tableMatch(candidate), candidate).to.deep.equal(routerMatch(router, candidate));
    }), { numRuns: 3000, seed: 42 });
  });
});
