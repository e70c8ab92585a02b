import { expect } from 'chai';
import { MAX_INCLUDED_RECORDS } from '../../../src/engine/read/read-records.ts';
import { createBrand, createTestKey, insert } from '../../support/fixtures.ts';
import { resetDatabase, testDatabase } from '../../support/test-database.ts';
import { useServer } from '../../support/use-server.ts';

describe('includes on a page', () => {
  const server = useServer();

  it('embeds up to the bound, and past it refuses with 400 rather than cut the list short', async () => {
    const { db } = await testDatabase();
    await resetDatabase(db);
    const brand = await createBrand('bulk');
    const { key } = await createTestKey({ brands: ['bulk'] });
    const [full, overfull] = await insert('options', brand.id, [{ name: 'Full' }, { name: 'Overfull' }]);
    for (const [option, count] of [[full!, MAX_INCLUDED_RECORDS], [overfull!, MAX_INCLUDED_RECORDS + 1]] as const) {
      await db.raw(
        `insert into option_values (brand_id, option_id, name, created_at, updated_at)
         select ?, ?, 'v' || n, now(), now() from generate_series(1, ?) n`,
        [brand.id, option.id, count],
      );
    }
    const ok = await server.request(`/brands/bulk/options/${full!.id}?include=optionValues`, { key });
    expect(ok.status).to.equal(200);
    expect(ok.body.optionValues).to.have.length(MAX_INCLUDED_RECORDS);

    const refused = await server.request(`/brands/bulk/options/${overfull!.id}?include=optionValues`, { key });
    expect(refused.status).to.equal(400);
    expect(refused.body.errorCode).to.equal('invalid_parameter');
    expect(refused.body.details).to.deep.equal([{
      parameter: 'include',
      message: `'optionValues' would embed more than ${MAX_INCLUDED_RECORDS} records: ask for fewer with limit, or list option-values with a filter`,
    }]);
    const page = await server.request('/brands/bulk/options?include=optionValues&limit=1', { key });
    expect(page.status, 'a page holding only the full option').to.equal(200);
  });
});
