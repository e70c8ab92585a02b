import { expect } from 'chai';
import { loadRegistry } from '../../../src/engine/definition/registry.ts';
import { createSoakMix, filterQuery } from '../../../tools/soak/soak-mix.ts';
import { API_BASE_PATH } from '../../../src/server/http/api-base-path.ts';
import { soakRequest, type SoakRequest } from '../../../tools/soak/soak-request.ts';

describe('createSoakMix', () => {
  it('spreads over every non-tenant family and every key, learns, and asks for 404s, 400s and 304s', async () => {
    const registry = await loadRegistry();
    const keys = [
      { label: 'northwind', key: 'k1', brands: ['northwind'] },
      { label: 'global', key: 'k2', brands: ['northwind', 'southpeak'] },
    ];
    const mix = createSoakMix({ registry, keys });
    const families = new Set<string>();
    const kinds = new Map<string, SoakRequest>();
    for (let i = 0; i < 3000; i++) {
      const request = mix.next();
      families.add(request.path.split('/')[6]!.split('?')[0]!);
      kinds.set(request.kind, request);
      expect(request.key.brands).to.include(request.brand);
      // Answer every list as if it had one record and a next page.
      if (request.expect === 200) mix.learn(request, { status: 200, etag: `"e${i}"`, body: JSON.stringify({ items: [{ id: `id-${i}`, code: 'C1' }], nextCursor: `c${i}` }) });
    }
    const expected = registry.resources.filter((r) => r.scope !== 'tenant').map((r) => r.path);
    expect([...families].sort()).to.deep.equal(expected.sort());
    expect([...kinds.keys()].sort()).to.deep.equal(['bad-request', 'conditional', 'get', 'list', 'list-filter', 'list-include', 'list-limit', 'next-page', 'not-found']);
    expect(kinds.get('not-found')!.expect).to.equal(404);
    expect(kinds.get('bad-request')!.expect).to.equal(400);
    expect(kinds.get('conditional')!).to.deep.include({ expect: 304 });
    expect(kinds.get('conditional')!.headers['If-None-Match']).to.match(/^"e\d+"$/);
    expect(kinds.get('next-page')!.path).to.match(/[?&]cursor=c\d+/);
    expect(kinds.get('next-page')!.depth).to.be.within(2, 4);
  });
});

describe('createSoakMix, reading by id', () => {
  const key = { label: 'acme', key: 'k', brands: ['acme'] };
  const ID = '11111111-1111-4111-8111-111111111111';

  it('reads by id only what an answer taught, in any family of the brand once one was learned', async () => {
    const mix = createSoakMix({ registry: await loadRegistry(), keys: [key] });
    const before = Array.from({ length: 200 }, () => mix.next());
    expect(before.filter((request) => request.kind === 'get'), 'nothing learned yet').to.deep.equal([]);

    const list = `${API_BASE_PATH}/brands/acme/carton-sizes`;
    mix.learn(soakRequest('list', { key, brand: 'acme' }, list), { status: 200, etag: null, body: JSON.stringify({ items: [{ id: ID }], nextCursor: null }) });
    // The mix moves on through the other families: a short soak (CI's: 240 requests over 93 families) meets each
    // once, before its answer is back, and would never read by id if a get had to wait for its own family.
    const after = Array.from({ length: 200 }, () => mix.next());
    const gets = after.filter((request) => request.kind === 'get');
    expect(gets.length, 'reads by id, a fifth of the mix').to.be.greaterThan(10);
    for (const request of gets) expect(request.path).to.equal(`${list}/${ID}`);
  });
});

describe('filterQuery', () => {
  it('filters exactly on a value of the first record a plain column holds, else on since, else not at all', async () => {
    const registry = await loadRegistry();
    const products = registry.resources.find((resource) => resource.path === 'products')!;
    const exact = products.filters.find((filter) => filter.match === 'exact' && filter.targets.length === 1 && filter.targets[0]!.join === null)!;
    const label = exact.targets[0]!.label;
    expect(filterQuery(products, { [label]: 'X 1' })).to.equal(`${encodeURIComponent(exact.name)}=X%201`);
    const since = products.filters.find((filter) => filter.match === 'since');
    const fallback = since ? `${since.name}=${encodeURIComponent('2026-01-01T00:00:00Z')}` : null;
    expect(filterQuery(products, null)).to.equal(fallback);
    expect(filterQuery(products, { [label]: '' }), 'an empty value is no filter').to.equal(fallback);
    expect(filterQuery({ ...products, filters: [] }, { [label]: 'X' })).to.equal(null);
  });
});
