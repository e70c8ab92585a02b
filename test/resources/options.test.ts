import { expect } from 'chai';
import { insert } from '../support/fixtures.ts';
import { describeCommonRules, expectStringFilterLength, ids, insertOne, listOrder, qs, useApi } from './helpers.ts';

describe('GET /brands/{brand}/options', () => {
  const api = useApi();

  describeCommonRules(api, {
    path: 'options',
    includes: ['optionValues'],
    filter: { name: 'name', value: 'Colour' },
    make: (brandId) => insertOne('options', brandId, { name: 'Colour' }),
  });

  it('returns exactly id, name, createdAt, updatedAt', async () => {
    const [colour, unnamed] = await insert('options', api.brand.id, [
      { name: 'Colour', createdAt: '2026-03-01T09:30:00.001Z', updatedAt: '2026-03-01T09:30:00.002Z' },
      { name: null, createdAt: '2026-03-01T09:30:01Z', updatedAt: '2026-03-01T09:30:01Z' },
    ]);
    const response = await api.get('/brands/acme/options');
    expect(response.status).to.equal(200);
    expect(response.body).to.deep.equal({
      items: [
        { id: colour!.id, name: 'Colour', createdAt: '2026-03-01T09:30:00.001Z', updatedAt: '2026-03-01T09:30:00.002Z' },
        { id: unnamed!.id, name: null, createdAt: '2026-03-01T09:30:01.000Z', updatedAt: '2026-03-01T09:30:01.000Z' },
      ],
      nextCursor: null,
      totalItems: 2,
    });
    expect(Object.keys(response.body.items[0])).to.deep.equal(['id', 'name', 'createdAt', 'updatedAt']);
  });

  it('filters name exactly and case-sensitively, with the length rule', async () => {
    const options = await insert('options', api.brand.id, [{ name: 'Colour' }, { name: 'colour' }, { name: 'Colour / Fit' }]);
    for (const [name, expected] of [['Colour', [0]], ['colour', [1]], ['Colour / Fit', [2]], ['Col', []]] as const) {
      const response = await api.get(`/brands/acme/options${qs({ name })}`);
      expect(ids(response), name).to.deep.equal(expected.map((i) => options[i]!.id));
      expect(response.body.totalItems).to.equal(expected.length);
    }
    await expectStringFilterLength(api, 'options', 'name');
  });

  it('includes optionValues in createdAt, id order, [] when none, never of another brand', async () => {
    const [colour, size, empty] = await insert('options', api.brand.id, [{ name: 'Colour' }, { name: 'Size' }, { name: 'Empty' }]);
    const values = await insert('option-values', api.brand.id, [
      { optionId: colour!.id, name: 'Late', createdAt: '2026-05-01T00:00:00Z', updatedAt: '2026-05-01T00:00:00Z' },
      { optionId: colour!.id, name: 'Early', createdAt: '2026-04-01T00:00:00Z', updatedAt: '2026-04-01T00:00:00Z' },
      { optionId: colour!.id, name: 'Tie A', createdAt: '2026-04-15T00:00:00.000001Z', updatedAt: '2026-04-15T00:00:00Z' },
      { optionId: colour!.id, name: 'Tie B', createdAt: '2026-04-15T00:00:00.000001Z', updatedAt: '2026-04-15T00:00:00Z' },
      { optionId: size!.id, name: 'M', sequence: 2, hexCode: null, createdAt: '2026-04-02T00:00:00Z', updatedAt: '2026-04-03T00:00:00Z' },
      { name: 'No option' },
    ]);
    // A value of another brand that points at acme's option is not acme's.
    await insert('option-values', api.other.id, [{ optionId: colour!.id, name: 'Foreign' }]);

    const response = await api.get('/brands/acme/options?include=optionValues');
    expect(response.status).to.equal(200);
    expect(ids(response)).to.deep.equal([colour!.id, size!.id, empty!.id]);
    const [c, s, e] = response.body.items;
    const colourValues = listOrder(values.slice(0, 4));
    expect(colourValues.map((v) => v.name).slice(0, 1)).to.deep.equal(['Early']);
    expect(c.optionValues.map((v: { id: string }) => v.id)).to.deep.equal(colourValues.map((v) => v.id));
    expect(s.optionValues).to.deep.equal([{
      id: values[4]!.id, optionId: size!.id, name: 'M', code: null, status: null, sequence: 2, hexCode: null, swatchVersion: null,
      createdAt: '2026-04-02T00:00:00.000Z', updatedAt: '2026-04-03T00:00:00.000Z',
    }]);
    expect(e.optionValues).to.deep.equal([]);

    const one = await api.get(`/brands/acme/options/${colour!.id}?include=optionValues`);
    expect(one.status).to.equal(200);
    expect(one.body).to.deep.equal(c);
    const none = await api.get(`/brands/acme/options/${empty!.id}?include=optionValues`);
    expect(none.body.optionValues).to.deep.equal([]);
  });

  it('keeps includes with a filter and a page size, on every page', async () => {
    const options = await insert('options', api.brand.id, [{ name: 'A' }, { name: 'A' }, { name: 'B' }, { name: 'A' }]);
    await insert('option-values', api.brand.id, options.map((o) => ({ optionId: o.id, name: `of ${o.id}` })));
    const first = await api.get('/brands/acme/options?name=A&include=optionValues&limit=2');
    expect(ids(first)).to.deep.equal([options[0]!.id, options[1]!.id]);
    expect(first.body.totalItems).to.equal(3);
    const link = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '');
    expect(link).to.not.equal(null);
    const second = await api.get(link![1]!);
    expect(ids(second)).to.deep.equal([options[3]!.id]);
    expect(second.body.items[0].optionValues.map((v: { optionId: string }) => v.optionId)).to.deep.equal([options[3]!.id]);
    expect(second.body.nextCursor).to.equal(null);
  });
});
