import { expect } from 'chai';
import { CASE_NAMES, buildCases, needsPagePositions, walksOf, type CaseFixtures } from '../../../bench/measure/cases.ts';

const fixtures: CaseFixtures = {
  big: { slug: 'brand-001', id: 'b1000000-0000-4000-8000-000000000001' },
  small: { slug: 'brand-002', id: 'b2000000-0000-4000-8000-000000000002' },
  productIds: ['p1', 'p2'],
  pages: {
    second: { page: 2, cursor: 'c2.sig', after: '2023-01-01T00:00:00.000001Z,x2' },
    deep: { page: 2000, cursor: 'c2000.sig', after: '2024-06-01T00:00:00.000001Z,x2000' },
  },
  newestDeep: { page: 2000, cursor: 'n2000.sig', after: '2025-06-01T00:00:00.000001Z,y2000' },
  codeDeep: { page: 2000, cursor: 'k2000.sig', offset: 49975, total: 200000 },
};

describe('buildCases', () => {
  it('asks the server by slug with its key and the floor by brand id, for the same records', () => {
    const cases = new Map(buildCases({ names: CASE_NAMES, fixtures }).map((c) => [c.name, c]));
    expect([...cases.keys()]).to.deep.equal([...CASE_NAMES]);
    expect(cases.get('get-by-id')).to.deep.include({
      serverPaths: ['/api/public/v1/brands/brand-001/products/p1', '/api/public/v1/brands/brand-001/products/p2'],
      floorPaths: [`/floor/products/${fixtures.big.id}/p1`, `/floor/products/${fixtures.big.id}/p2`],
    });
    expect(cases.get('get-by-id')!.restricted).to.equal(undefined);
    // The restricted get: the same requests, asked with the restricted key.
    expect(cases.get('get-by-id-restricted')).to.deep.include({
      restricted: true, serverPaths: cases.get('get-by-id')!.serverPaths, floorPaths: cases.get('get-by-id')!.floorPaths,
    });
    expect(cases.get('first-page-small')).to.deep.include({
      serverPaths: ['/api/public/v1/brands/brand-002/products?limit=25'],
      floorPaths: [`/floor/products/${fixtures.small.id}?limit=25`],
    });
    expect(cases.get('first-page-big-filter')!.serverPaths).to.deep.equal(['/api/public/v1/brands/brand-001/products?status=approved&limit=25']);
    expect(cases.get('page-2000')).to.deep.include({
      title: 'page 2000 of the big brand, by cursor',
      serverPaths: ['/api/public/v1/brands/brand-001/products?limit=25&cursor=c2000.sig'],
      floorPaths: [`/floor/products/${fixtures.big.id}?limit=25&after=2024-06-01T00%3A00%3A00.000001Z%2Cx2000`],
    });
    expect(cases.get('page-2')!.floorPaths[0]).to.contain('after=2023-01-01T00%3A00%3A00.000001Z%2Cx2');
    expect(cases.get('search')!.serverPaths).to.deep.equal(['/api/public/v1/brands/brand-001/products?search=parka&limit=25']);
    expect(cases.get('include')!.floorPaths).to.deep.equal([`/floor/products/${fixtures.small.id}?include=skus&limit=25`]);
  });

  it('asks the list questions of §8 of the server in its syntax and of the floor in its hand-written form', () => {
    const cases = new Map(buildCases({ names: CASE_NAMES, fixtures }).map((c) => [c.name, c]));
    const server = '/api/public/v1/brands/brand-001/products';
    const floor = `/floor/products/${fixtures.big.id}`;
    const paths = (name: (typeof CASE_NAMES)[number]) => ({ server: cases.get(name)!.serverPaths, floor: cases.get(name)!.floorPaths });
    expect(paths('first-page-big')).to.deep.equal({ server: [`${server}?limit=25`], floor: [`${floor}?order=createdAt&limit=25`] });
    expect(paths('newest-first-page')).to.deep.equal({ server: [`${server}?sort=-createdAt&limit=25`], floor: [`${floor}?order=-createdAt&limit=25`] });
    expect(paths('newest-page-2000')).to.deep.equal({
      server: [`${server}?sort=-createdAt&limit=25&cursor=n2000.sig`],
      floor: [`${floor}?order=-createdAt&limit=25&after=2025-06-01T00%3A00%3A00.000001Z%2Cy2000`],
    });
    expect(cases.get('newest-page-2000')!.title).to.equal('page 2000 of the big brand, sort=-createdAt, by cursor');
    expect(paths('code-page-2000')).to.deep.equal({
      server: [`${server}?sort=code&limit=25&cursor=k2000.sig`],
      floor: [`${floor}?order=code&limit=25&offset=49975&total=200000`],
    });
    expect(paths('any-of-statuses')).to.deep.equal({
      server: [`${server}?status=development&status=sampling&status=discontinued&limit=25`],
      floor: [`${floor}?status=development&status=sampling&status=discontinued&limit=25`],
    });
    expect(paths('created-month')).to.deep.equal({
      server: [`${server}?createdAt%5Bgte%5D=2024-03-01T00%3A00%3A00Z&createdAt%5Blt%5D=2024-04-01T00%3A00%3A00Z&limit=25`],
      floor: [`${floor}?createdAt%5Bgte%5D=2024-03-01T00%3A00%3A00Z&createdAt%5Blt%5D=2024-04-01T00%3A00%3A00Z&limit=25`],
    });
    expect(paths('counts-status')).to.deep.equal({ server: [`${server}/counts?by=status`], floor: [`${floor}/counts?by=status`] });
  });

  it('cannot build the paging cases without the page positions', () => {
    expect(() => buildCases({ names: ['page-2'], fixtures: { ...fixtures, pages: null } })).to.throw(/page positions/);
    expect(buildCases({ names: ['search'], fixtures: { ...fixtures, pages: null } })).to.have.length(1);
    expect(() => buildCases({ names: ['newest-page-2000'], fixtures: { ...fixtures, newestDeep: null } })).to.throw(/walk to the deep page \(newest\)/);
    expect(() => buildCases({ names: ['code-page-2000'], fixtures: { ...fixtures, codeDeep: null } })).to.throw(/walk to the deep page \(code\)/);
  });
});

describe('walksOf and needsPagePositions', () => {
  it('walks cursors only for the paging cases, in the orders they page in', () => {
    expect(needsPagePositions(['get-by-id', 'include'])).to.equal(false);
    expect(needsPagePositions(['page-2000'])).to.equal(true);
    expect(walksOf(['get-by-id', 'newest-first-page', 'counts-status'])).to.deep.equal([]);
    expect(walksOf(['code-page-2000', 'newest-page-2000', 'page-2'])).to.deep.equal(['default', 'newest', 'code']);
    expect(needsPagePositions(['newest-page-2000'])).to.equal(false);
  });
});
