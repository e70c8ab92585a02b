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

  it('answers the list questions of §8 on products with its hand-written SQL: orders, positions, any of, a range, counts', async () => {
    const { brand } = await resetToBrand('acme');
    const at = (day: number): string => `2024-03-${String(day).padStart(2, '0')}T00:00:00.000Z`;
    const products = await insert('products', brand.id, [
      { code: 'C', name: 'c', status: 'approved', createdAt: at(1) },
      { code: 'A', name: 'a', status: 'sampling', createdAt: at(2) },
      { code: 'B', name: 'b', status: 'development', createdAt: at(3) },
      { code: 'D', name: 'd', status: 'approved', createdAt: '2024-04-01T00:00:00Z' },
    ]);
    const ids = (body: { items: { id: string }[] }): string[] => body.items.map((item) => item.id);
    const [c, a, b, d] = products.map((product) => product!.id as string);
    await served(true, async (get, pool) => {
      const base = `/floor/products/${brand.id}`;
      const newest = await get(`${base}?order=-createdAt&limit=2`);
      expect(newest.status).to.equal(200);
      expect(ids(newest.body)).to.deep.equal([d, b]);
      expect(newest.body.totalItems).to.equal(4);
      expect(newest.body.nextCursor).to.match(new RegExp(`^2024-03-03T00:00:00\\.0+Z,${b}$`));
      expect(newest.body.items[0]).to.have.keys(['id', 'code', 'name', 'status', 'category', 'createdAt', 'updatedAt']);
      expect(newest.body.items[1].createdAt).to.equal(at(3));
      const after = await get(`${base}?order=-createdAt&limit=2&after=${encodeURIComponent(newest.body.nextCursor)}`);
      expect(ids(after.body)).to.deep.equal([a, c]);
      expect(after.body.nextCursor).to.equal(null);
      // By code from an OFFSET, the total carried by the position: nothing counted.
      const byCode = await get(`${base}?order=code&limit=2&offset=1&total=99`);
      expect(ids(byCode.body)).to.deep.equal([b, c]);
      expect(byCode.body).to.deep.include({ totalItems: 99, nextCursor: '3' });
      const anyOf = await get(`${base}?status=sampling&status=development&limit=25`);
      expect(ids(anyOf.body)).to.deep.equal([a, b]);
      expect(anyOf.body.totalItems).to.equal(2);
      const month = await get(`${base}?createdAt%5Bgte%5D=2024-03-02T00:00:00Z&createdAt%5Blt%5D=2024-04-01T00:00:00Z&limit=25`);
      expect(ids(month.body)).to.deep.equal([a, b]);
      expect(month.body.totalItems).to.equal(2);
      const counts = await get(`${base}/counts?by=status`);
      expect(counts).to.deep.equal({ status: 200, body: {
        by: 'status', counts: [{ value: 'approved', count: 2 }, { value: 'development', count: 1 }, { value: 'sampling', count: 1 }], otherItems: 0, totalItems: 4,
      } });
      expect((await get(`${base}?order=nope`)).status).to.equal(400);
      expect((await get(`${base}/counts?by=code`)).status).to.equal(400);
      // Prepared by name, except the statements with a range (planned for their values, as the server plans them).
      const names = await preparedNames(pool);
      expect(names.filter((name) => name.startsWith('hand_'))).to.have.length(7);
    });
  });
});
