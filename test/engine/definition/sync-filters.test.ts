import { expect } from 'chai';
import type { Field } from '../../../src/engine/definition/resource.ts';
import { SYNC_FILTERS, syncFilters } from '../../../src/engine/definition/sync-filters.ts';
import { expectErrorBody } from '../../support/error-body.ts';
import { insert, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';
import { operationParameters } from '../../support/operation-parameters.ts';
import { useServer } from '../../support/use-server.ts';

const field = (name: string, more: Partial<Field> = {}): Field => ({
  name, type: 'timestamp', column: name, join: null, sourceColumn: `${name}_col`, nullable: false, values: null,
  references: null, unique: false, hidden: false, description: null, ...more,
});

describe('syncFilters', () => {
  it('gives a since filter for each timestamp column field the family has', () => {
    const filters = syncFilters({ scope: 'brand', fields: [field('createdAt'), field('updatedAt')] });
    expect(filters.map((filter) => filter.name)).to.deep.equal(SYNC_FILTERS.map((sync) => sync.name));
    expect(filters[1]).to.deep.equal({
      name: 'updatedSince',
      match: 'since',
      targets: [{ label: 'updatedAt', join: null, column: 'updatedAt_col', type: 'timestamp', values: null }],
      description: SYNC_FILTERS[1]!.description,
    });
    // What updatedSince cannot see, and where to look instead.
    expect(filters[1]!.description).to.contain('changes feed').and.to.contain('/changes').and.to.contain('deleted');
    expect(filters[0]!.description).to.equal(null);
    expect(Object.isFrozen(filters[1])).to.equal(true);
    expect(Object.isFrozen(filters[1]!.targets[0])).to.equal(true);
  });

  it('skips a field that is missing, not a timestamp or read from a join, and the tenant family', () => {
    expect(syncFilters({ scope: 'shared', fields: [field('createdAt')] }).map((f) => f.name)).to.deep.equal(['createdSince']);
    expect(syncFilters({ scope: 'brand', fields: [field('createdAt', { type: 'date' }), field('updatedAt', { join: 'x', column: null })] })).to.deep.equal([]);
    expect(syncFilters({ scope: 'tenant', fields: [field('createdAt'), field('updatedAt')] })).to.deep.equal([]);
  });
});

/** `updatedSince` and `createdSince`: the engine's own filters on every list whose records carry the field. */
describe('incremental sync (updatedSince, createdSince)', () => {
  let key: string;
  let acme: { id: string; slug: string };

  const server = useServer();
  beforeEach(async () => {
    ({ brand: acme, key } = await resetToBrand());
  });

  const list = (query: string) => server.request(`/brands/acme/carton-sizes?${query}`, { key });
  const names = (body: { items: { name: string }[] }): string[] => body.items.map((item) => item.name);

  async function plant(): Promise<void> {
    await insert('carton-sizes', acme.id, [
      { name: 'A', createdAt: '2026-03-01T10:00:00.000Z', updatedAt: '2026-03-01T10:00:00.000Z' },
      { name: 'B', createdAt: '2026-03-02T10:00:00.000Z', updatedAt: '2026-03-05T08:30:00.250Z' },
      { name: 'C', createdAt: '2026-03-03T10:00:00.000Z', updatedAt: '2026-03-03T10:00:00.000Z' },
    ]);
  }

  it('updatedSince keeps records updated at or after the instant, in list order', async () => {
    await plant();
    expect(names((await list('updatedSince=2026-03-03T10:00:00Z')).body)).to.deep.equal(['B', 'C']);
    // At the exact instant (millisecond precision kept): included.
    expect(names((await list('updatedSince=2026-03-05T08:30:00.250Z')).body)).to.deep.equal(['B']);
    expect(names((await list('updatedSince=2026-03-05T08:30:00.251Z')).body)).to.deep.equal([]);
    // Any time zone offset names the same instant.
    expect(names((await list('updatedSince=2026-03-05T09:30:00.250%2B01:00')).body)).to.deep.equal(['B']);
  });

  it('createdSince keeps records created at or after the instant, and combines with other filters', async () => {
    await plant();
    const response = await list('createdSince=2026-03-02T10:00:00Z');
    expect(names(response.body)).to.deep.equal(['B', 'C']);
    expect(response.body.totalItems).to.equal(2);
    expect(names((await list('createdSince=2026-03-02T10:00:00Z&name=C')).body)).to.deep.equal(['C']);
  });

  it('refuses instants without a time zone, year 0000, dates alone and garbage, naming the parameter', async () => {
    for (const value of ['2026-03-01T10:00:00', '0000-01-01T00:00:00Z', '2026-03-01', 'yesterday', '2026-13-01T00:00:00Z']) {
      const response = await list(`updatedSince=${encodeURIComponent(value)}`);
      expect(response.status, value).to.equal(400);
      expectErrorBody(response.body, 'invalid_parameter', { details: 'required' });
      expect(response.body.details.map((d: { parameter: string }) => d.parameter), value).to.deep.equal(['updatedSince']);
    }
  });

  it('binds a cursor to its since value: another value is cursor_mismatch', async () => {
    await plant();
    const first = await list('updatedSince=2026-03-01T00:00:00Z&limit=1');
    expect(first.body.nextCursor).to.be.a('string');
    const next = await list(`updatedSince=2026-03-01T00:00:00Z&limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(names(next.body)).to.deep.equal(['B']);
    const other = await list(`updatedSince=2026-03-02T00:00:00Z&limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(other.status).to.equal(400);
    expect(other.body.errorCode).to.equal('cursor_mismatch');
  });

  it('a sync loop reads everything once, then only what changed since its last high-water mark', async () => {
    const { db } = await testDatabase();
    await insert('carton-sizes', acme.id, Array.from({ length: 7 }, (_, i) => ({
      name: `box-${i}`,
      createdAt: `2026-04-01T00:0${i}:00.000Z`,
      updatedAt: `2026-04-01T00:0${i}:00.000Z`,
    })));

    /** One sync run: every page of the collection changed since `since`; returns the records and the new mark. */
    async function syncRun(since: string | null): Promise<{ seen: { id: string; name: string; updatedAt: string }[]; mark: string | null }> {
      const seen: { id: string; name: string; updatedAt: string }[] = [];
      let cursor: string | null = null;
      do {
        const query = new URLSearchParams({ limit: '3' });
        if (since) query.set('updatedSince', since);
        if (cursor) query.set('cursor', cursor);
        const response = await list(query.toString());
        expect(response.status, response.text).to.equal(200);
        seen.push(...response.body.items);
        cursor = response.body.nextCursor;
      } while (cursor);
      const mark = seen.reduce<string | null>((max, r) => (max === null || r.updatedAt > max ? r.updatedAt : max), since);
      return { seen, mark };
    }

    const full = await syncRun(null);
    expect(full.seen).to.have.length(7);
    expect(full.mark).to.equal('2026-04-01T00:06:00.000Z');

    // The writer changes two records later on.
    const [two, five] = [full.seen[2]!, full.seen[5]!];
    await db('carton_sizes').whereIn('id', [two.id, five.id]).update({ updated_at: '2026-04-02T12:00:00.000Z', name: db.raw(`name || '-v2'`) });

    // "At or after" includes the mark itself: the last record of the previous run comes again, once.
    const incremental = await syncRun(full.mark);
    expect(incremental.seen.map((r) => r.name)).to.deep.equal(['box-2-v2', 'box-5-v2', 'box-6']);
    expect(incremental.mark).to.equal('2026-04-02T12:00:00.000Z');

    const quiet = await syncRun('2026-04-02T12:00:00.001Z');
    expect(quiet.seen).to.deep.equal([]);
  });

  it('is offered on every list whose records carry the field, and documented there', async () => {
    const doc = (await server.request('/openapi.json', { key: null })).body;
    for (const resource of server.registry.resources.filter((r) => r.scope !== 'tenant')) {
      const parameters = operationParameters(doc, `/brands/{brand}/${resource.path}`);
      for (const [parameter, field] of [['updatedSince', 'updatedAt'], ['createdSince', 'createdAt']] as const) {
        const has = resource.recordFields.some((f) => f.name === field);
        const declared = parameters.find((p) => p.name === parameter);
        expect(Boolean(declared), `${resource.path} ${parameter}`).to.equal(has);
        if (declared) {
          expect(declared.schema!.format).to.equal('date-time');
          expect(declared.description).to.contain('at or after');
        }
      }
    }
  });
});
