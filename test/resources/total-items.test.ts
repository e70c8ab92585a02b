import { expect } from 'chai';
import { answerSources, type AnswerSources } from '../../bench/measure/fresh-counts.ts';
import { createBrand, insert, resetToBrand } from '../support/fixtures.ts';
import { testDatabase } from '../support/test-database.ts';
import { useServer } from '../support/use-server.ts';

/**
 * totalItems under load: identical first pages share a run that started
 * after each of them arrived, which reuses the last count only while the
 * database snapshot is the same (nothing committed since), and later pages
 * carry their walk's total without counting.
 */
describe('totalItems: batched counts on first pages, the walk\'s total on later ones', () => {
  let key: string;
  let brandId: string;

  const server = useServer();
  beforeEach(async () => {
    ({ brand: { id: brandId }, key } = await resetToBrand());
    await insert('carton-sizes', brandId, Array.from({ length: 30 }, (_, i) => ({ name: i % 3 === 0 ? 'Big' : 'Small' })));
  });

  /** The count statements the database ran while `body` ran. */
  async function countStatements(body: () => Promise<void>): Promise<number> {
    const { db } = await testDatabase();
    let counted = 0;
    const listen = (query: { sql: string }): void => {
      if (query.sql.startsWith('select count(*)')) counted += 1;
    };
    db.on('query', listen);
    try {
      await body();
    } finally {
      db.off('query', listen);
    }
    return counted;
  }

  it('answers 20 identical concurrent first pages with the exact total, counting fewer times on Postgres', async () => {
    let totals: number[] = [];
    const counted = await countStatements(async () => {
      const responses = await Promise.all(Array.from({ length: 20 }, () => server.request('/brands/acme/carton-sizes?name=Small&limit=5', { key })));
      totals = responses.map((response) => response.body.totalItems as number);
    });
    expect(totals).to.deep.equal(Array(20).fill(20));
    expect(counted).to.be.at.least(1).and.at.most(20);
    // PGlite runs one query at a time on the main thread, so requests seldom overlap there;
    // on Postgres they do, and the batch shows. (The batching itself: test/db/counts/count-batcher.test.ts.)
    if ((await testDatabase()).kind === 'postgres') expect(counted).to.be.below(20);
  });

  it('counts again for every first page that comes after a change: a remembered total is never reused past a commit', async () => {
    expect((await server.request('/brands/acme/carton-sizes?limit=5', { key })).body.totalItems).to.equal(30);
    await insert('carton-sizes', brandId, [{ name: 'Small' }]);
    expect((await server.request('/brands/acme/carton-sizes?limit=5', { key })).body.totalItems).to.equal(31);
  });

  it('counts once while none of its rows changes: first pages one after another reuse the count after a probe', async () => {
    let probes = 0;
    const listen = (query: { sql: string }): void => {
      if (query.sql.startsWith('select (coalesce(greatest(')) probes += 1;
    };
    const { db } = await testDatabase();
    db.on('query', listen);
    let totals: number[] = [];
    let counted: number;
    try {
      counted = await countStatements(async () => {
        for (let i = 0; i < 5; i++) totals.push((await server.request('/brands/acme/carton-sizes?name=Big&limit=5', { key })).body.totalItems as number);
      });
    } finally {
      db.off('query', listen);
    }
    expect(totals).to.deep.equal([10, 10, 10, 10, 10]);
    // One count, then four probes that find nothing written (a second count is allowed: on Postgres a
    // transaction of the database's own, such as an autoanalyze, may hold the xmin below the brand's last writes).
    expect(counted, 'counts for 5 first pages').to.be.at.most(2);
    expect(probes, 'probes').to.be.at.least(3);
    // Other brands' writes leave it alone.
    const other = await createBrand('other-brand');
    await insert('carton-sizes', other.id, [{ name: 'Big' }]);
    counted = await countStatements(async () => {
      totals.push((await server.request('/brands/acme/carton-sizes?name=Big&limit=5', { key })).body.totalItems as number);
    });
    // Exactly none on PGlite (nothing else runs there); on Postgres one transaction of its own may hold the xmin back.
    expect(counted, 'a write to another brand').to.be.at.most(process.env.DATABASE_URL ? 1 : 0);
    expect(totals[totals.length - 1]).to.equal(10);
    // A write to the brand's rows: the next first page counts, and is exact.
    await insert('carton-sizes', brandId, [{ name: 'Big' }]);
    totals = [];
    counted = await countStatements(async () => {
      totals.push((await server.request('/brands/acme/carton-sizes?name=Big&limit=5', { key })).body.totalItems as number);
    });
    expect(totals).to.deep.equal([11]);
    expect(counted).to.equal(1);
  });

  it('says in /metrics where each total came from: counted for it, then the remembered count', async () => {
    const answered = async (): Promise<AnswerSources> => {
      const sources = await answerSources(server.origin);
      expect(sources, 'every series of bcat_count_answers_total at /metrics').to.not.equal(null);
      return sources!;
    };
    const before = await answered();
    await server.request('/brands/acme/carton-sizes?name=Small&limit=5', { key });
    await server.request('/brands/acme/carton-sizes?name=Small&limit=5', { key });
    const after = await answered();
    const grew = (from: keyof AnswerSources): number => after[from] - before[from];
    expect({ counted: grew('counted'), remembered: grew('remembered'), running: grew('running') }).to.deep.equal({ counted: 1, remembered: 1, running: 0 });
  });

  it('does not count on later pages: they carry the total of the walk\'s first page', async () => {
    const first = await server.request('/brands/acme/carton-sizes?limit=5', { key });
    let cursor = first.body.nextCursor as string | null;
    let pages = 0;
    const counted = await countStatements(async () => {
      while (cursor) {
        const page = await server.request(`/brands/acme/carton-sizes?limit=5&cursor=${encodeURIComponent(cursor)}`, { key });
        expect(page.body.totalItems).to.equal(30);
        cursor = page.body.nextCursor;
        pages += 1;
      }
    });
    expect(pages).to.equal(5);
    expect(counted).to.equal(0);
  });
});
