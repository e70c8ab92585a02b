import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { insert } from '../support/fixtures.ts';
import { describeCommonRules, expectError, expectAnyOf, expectUuidFilter, ids, insertOne, qs, useApi } from './helpers.ts';

const FIELDS = ['id', 'entityType', 'entityId', 'content', 'lastEditedById', 'createdAt', 'updatedAt'];
const ENTITY_TYPES = ['product', 'product_construction', 'order', 'partner', 'rfq', 'proto'];

describe('GET /brands/{brand}/notes', () => {
  const api = useApi();

  describeCommonRules(api, {
    path: 'notes',
    includes: [],
    filter: { name: 'entityType', value: 'product' },
    make: (brandId) => insertOne('notes', brandId, { entityType: 'product', entityId: randomUUID(), content: { text: 'hello' } }),
  });

  it('returns exactly the spec fields in order, content as the JSON value stored', async () => {
    const entityId = randomUUID();
    const editor = randomUUID();
    const contents: unknown[] = [
      { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Check the seam' }] }] },
      ['a', 1, null, { b: false }],
      'plain string',
      0,
      false,
      null,
    ];
    const notes = await insert('notes', api.brand.id, contents.map((content, i) => ({
      entityType: ENTITY_TYPES[i],
      entityId: i === 5 ? null : entityId,
      content,
      lastEditedById: i === 0 ? editor : null,
      createdAt: `2026-03-01T09:30:00.00${i}Z`,
      updatedAt: `2026-03-01T10:00:00.00${i}Z`,
    })));
    const response = await api.get('/brands/acme/notes');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      items: notes.map((note, i) => ({
        id: note.id,
        entityType: ENTITY_TYPES[i],
        entityId: i === 5 ? null : entityId,
        content: contents[i],
        lastEditedById: i === 0 ? editor : null,
        createdAt: `2026-03-01T09:30:00.00${i}Z`,
        updatedAt: `2026-03-01T10:00:00.00${i}Z`,
      })),
      nextCursor: null,
      totalItems: 6,
    });
    for (const item of response.body.items) expect(Object.keys(item)).to.deep.equal(FIELDS);
    const one = await api.get(`/brands/acme/notes/${notes[0]!.id}`);
    expect(one.body).to.deep.equal(response.body.items[0]);
  });

  it('filters by each of the six entity types', async () => {
    const notes = await insert('notes', api.brand.id, [...ENTITY_TYPES, ...ENTITY_TYPES].map((entityType) => ({ entityType, entityId: randomUUID() })));
    for (const [i, entityType] of ENTITY_TYPES.entries()) {
      const response = await api.get(`/brands/acme/notes?entityType=${entityType}`);
      expect(ids(response), entityType).to.deep.equal([notes[i]!.id, notes[i + 6]!.id]);
      expect(response.body.totalItems).to.equal(2);
    }
  });

  it('answers an entity type outside the six with 400 invalid_parameter naming entityType', async () => {
    await insertOne('notes', api.brand.id, { entityType: 'product', entityId: randomUUID() });
    for (const value of ['Product', 'PRODUCT', 'products', 'product ', 'sku', 'product-construction', 'productConstruction', '', 'x'.repeat(256), 'product,order']) {
      expectError(await api.get(`/brands/acme/notes${qs({ entityType: value })}`), 400, 'invalid_parameter', ['entityType']);
    }
    await expectAnyOf(api, 'notes', 'entityType', 'product');
  });

  it('filters by entityId, and combines it with entityType', async () => {
    const [p, o] = [randomUUID(), randomUUID()];
    const notes = await insert('notes', api.brand.id, [
      { entityType: 'product', entityId: p },
      { entityType: 'product_construction', entityId: p },
      { entityType: 'order', entityId: o },
      { entityType: 'product', entityId: o },
    ]);
    const cases: [Record<string, string>, number[]][] = [
      [{ entityId: p }, [0, 1]],
      [{ entityId: o }, [2, 3]],
      [{ entityId: p, entityType: 'product' }, [0]],
      [{ entityId: p, entityType: 'product_construction' }, [1]],
      [{ entityId: o, entityType: 'product_construction' }, []],
      [{ entityType: 'product' }, [0, 3]],
    ];
    for (const [params, expected] of cases) {
      const response = await api.get(`/brands/acme/notes${qs(params)}`);
      expect(ids(response), JSON.stringify(params)).to.deep.equal(expected.map((i) => notes[i]!.id));
      expect(response.body.totalItems, JSON.stringify(params)).to.equal(expected.length);
    }
    await expectUuidFilter(api, 'notes', 'entityId');
  });

  it('never shows notes of another brand, even on the same entity', async () => {
    const entityId = randomUUID();
    const mine = await insertOne('notes', api.brand.id, { entityType: 'order', entityId, content: { text: 'mine' } });
    await insertOne('notes', api.other.id, { entityType: 'order', entityId, content: { text: 'theirs' } });
    const response = await api.get(`/brands/acme/notes?entityId=${entityId}&entityType=order`);
    expect(ids(response)).to.deep.equal([mine.id]);
    expect(response.body.totalItems).to.equal(1);
    expect(response.text).to.not.contain('theirs');
  });
});
