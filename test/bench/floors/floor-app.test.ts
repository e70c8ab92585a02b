import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { expect } from 'chai';
import pg from 'pg';
import { createFloorApp } from '../../../bench/floors/floor-app.ts';
import { compileRegistry } from '../../../src/engine/compile/compile-registry.ts';
import { loadRegistry } from '../../../src/engine/definition/registry.ts';
import { insert, resetToBrand } from '../../support/fixtures.ts';
import { testDatabase } from '../../support/test-database.ts';

// The floor runs on Postgres only (pg's pool), as the bench runs it.
const onPostgres = process.env.DATABASE_URL ? describe : null;
const families = compileRegistry(await loadRegistry());

onPostgres?.('the floor of the bench', () => {
  async function served(prepared: boolean, use: (get: (path: string) => Promise<{ status: number; body: any }>, pool: pg.Pool) => Promise<void>): Promise<void> {
    // One connection: what the requests prepared is what the next query on the pool sees.
    const pool = new pg.Pool({ connectionString: (await testDatabase()).url!, max: 1 });
    const server: Server = createFloorApp({ pool, families, prepared }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await use(async (path) => {
        const response = await fetch(`${origin}${path}`);
        return { status: response.status, body: response.status === 200 ? await response.json() : null };
      }, pool);
    } finally {
      server.close();
      await pool.end();
    }
  }

  const preparedNames = async (pool: pg.Pool): Promise<string[]> =>
    (await pool.query('select name from pg_prepared_statements order by name')).rows.map((row: { name: string }) => row.name);

  for (const prepared of [false, true]) {
    it(`lists and gets with the engine's SQL, ${prepared ? 'as named prepared statements, as the server sends them' : 'unprepared'}`, async () => {
      const { brand } = await resetToBrand('acme');
      const [a, b] = await insert('carton-sizes', brand.id, [{ name: 'A' }, { name: 'B' }]);
      await served(prepared, async (get, pool) => {
        const list = await get(`/floor/carton-sizes/${brand.id}?limit=1`);
        expect(list.status).to.equal(200);
        expect(list.body.totalItems).to.equal(2);
        expect(list.body.items.map((item: { id: string }) => item.id)).to.deep.equal([a!.id]);
        expect(list.body.nextCursor).to.be.a('string');
        const one = await get(`/floor/carton-sizes/${brand.id}/${b!.id}`);
        expect(one).to.deep.include({ status: 200 });
        expect(one.body.name).to.equal('B');
        const names = await preparedNames(pool);
        if (prepared) expect(names).to.have.length.of.at.least(3).and.satisfy((all: string[]) => all.every((name) => name.startsWith('floor_')));
        else expect(names).to.deep.equal([]);
      });
    });
  }
});
