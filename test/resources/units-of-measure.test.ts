import { expect } from 'chai';
import { insert } from '../support/fixtures.ts';
import {
  describeCommonRules,
  expectError,
  expectAnyOf,
  expectStringFilterLength,
  ids,
  insertOne,
  qs,
  useApi,
} from './helpers.ts';

const FIELDS = ['id', 'code', 'name', 'type', 'createdAt', 'updatedAt'];

describe('GET /brands/{brand}/units-of-measure', () => {
  const api = useApi();

  describeCommonRules(api, {
    path: 'units-of-measure',
    includes: [],
    filter: { name: 'code', value: 'pcs' },
    make: (brandId) => insertOne('units-of-measure', brandId, { code: 'pcs', name: 'Pieces', type: 'count' }),
  });

  it('returns exactly the spec fields in order, nulls where null', async () => {
    const [pcs, bare] = await insert('units-of-measure', null, [
      { code: 'pcs', name: 'Pieces', type: 'count', createdAt: '2026-03-01T09:30:00.5Z', updatedAt: '2026-03-01T09:30:00.75Z' },
      { createdAt: '2026-03-01T09:31:00Z', updatedAt: '2026-03-01T09:31:00Z' },
    ]);
    const response = await api.get('/brands/acme/units-of-measure');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      items: [
        { id: pcs!.id, code: 'pcs', name: 'Pieces', type: 'count', createdAt: '2026-03-01T09:30:00.500Z', updatedAt: '2026-03-01T09:30:00.750Z' },
        { id: bare!.id, code: null, name: null, type: null, createdAt: '2026-03-01T09:31:00.000Z', updatedAt: '2026-03-01T09:31:00.000Z' },
      ],
      nextCursor: null,
      totalItems: 2,
    });
    for (const item of response.body.items) expect(Object.keys(item)).to.deep.equal(FIELDS);
  });

  it('shows shared rows (no brand) to every brand, with the brand\'s own, never another brand\'s', async () => {
    const [sharedM] = await insert('units-of-measure', null, [{ code: 'm', name: 'Metre', type: 'length' }]);
    const [acmeBox] = await insert('units-of-measure', api.brand.id, [{ code: 'box', name: 'Box of 12', type: 'count' }]);
    const [globexKg] = await insert('units-of-measure', api.other.id, [{ code: 'kg', name: 'Kilogram', type: 'weight' }]);
    const [sharedPcs] = await insert('units-of-measure', null, [{ code: 'pcs', name: 'Pieces', type: 'count' }]);

    const acme = await api.get('/brands/acme/units-of-measure');
    expect(ids(acme)).to.deep.equal([sharedM!.id, acmeBox!.id, sharedPcs!.id]);
    expect(acme.body.totalItems).to.equal(3);
    const globex = await api.server.request('/brands/globex/units-of-measure', { key: api.otherKey });
    expect(ids(globex)).to.deep.equal([sharedM!.id, globexKg!.id, sharedPcs!.id]);
    expect(globex.body.totalItems).to.equal(3);

    // By id: shared rows for both, own rows for the owner only.
    for (const id of [sharedM!.id, sharedPcs!.id, acmeBox!.id]) {
      const one = await api.get(`/brands/acme/units-of-measure/${id}`);
      expect(one.status, id).to.equal(200);
      expect(one.body).to.deep.equal(acme.body.items.find((item: { id: string }) => item.id === id));
    }
    expectError(await api.get(`/brands/acme/units-of-measure/${globexKg!.id}`), 404, 'not_found');
    const sharedForGlobex = await api.server.request(`/brands/globex/units-of-measure/${sharedM!.id}`, { key: api.otherKey });
    expect(sharedForGlobex.status).to.equal(200);
    expect(sharedForGlobex.body.code).to.equal('m');
    expectError(await api.server.request(`/brands/globex/units-of-measure/${acmeBox!.id}`, { key: api.otherKey }), 404, 'not_found');
  });

  it('pages through shared and own rows together without repeats or gaps', async () => {
    const rows = [];
    for (let i = 0; i < 9; i++) {
      const owner = i % 3 === 0 ? null : i % 3 === 1 ? api.brand.id : api.other.id;
      rows.push({ owner, record: await insertOne('units-of-measure', owner, { code: `u${i}` }) });
    }
    const expected = rows.filter((r) => r.owner !== api.other.id).map((r) => r.record.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response = await api.get(`/brands/acme/units-of-measure?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status, response.text).to.equal(200);
      expect(response.body.totalItems).to.equal(6);
      seen.push(...ids(response));
      cursor = response.body.nextCursor;
    } while (cursor);
    expect(seen).to.deep.equal(expected);
  });

  it('filters code and type exactly over shared and own rows', async () => {
    const [sharedPcs] = await insert('units-of-measure', null, [{ code: 'pcs', name: 'Pieces', type: 'count' }]);
    const [ownPcs, ownPCS] = await insert('units-of-measure', api.brand.id, [
      { code: 'pcs', name: 'Our pieces', type: 'Count' },
      { code: 'PCS', name: 'Upper pieces', type: 'count' },
    ]);
    await insert('units-of-measure', api.other.id, [{ code: 'pcs', name: 'Their pieces', type: 'count' }]);
    const cases: [Record<string, string>, string[]][] = [
      [{ code: 'pcs' }, [sharedPcs!.id, ownPcs!.id]],
      [{ code: 'PCS' }, [ownPCS!.id]],
      [{ type: 'count' }, [sharedPcs!.id, ownPCS!.id]],
      [{ type: 'Count' }, [ownPcs!.id]],
      [{ code: 'pcs', type: 'count' }, [sharedPcs!.id]],
      [{ code: 'pc' }, []],
    ];
    for (const [params, expected] of cases) {
      const response = await api.get(`/brands/acme/units-of-measure${qs(params)}`);
      expect(ids(response), JSON.stringify(params)).to.deep.equal(expected);
      expect(response.body.totalItems, JSON.stringify(params)).to.equal(expected.length);
    }
    for (const name of ['code', 'type']) {
      await expectStringFilterLength(api, 'units-of-measure', name);
      await expectAnyOf(api, 'units-of-measure', name, 'pcs');
    }
  });
});
