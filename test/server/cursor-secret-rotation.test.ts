import { expect } from 'chai';
import { insert, resetToBrand } from '../support/fixtures.ts';
import { newCopy, syncBatch } from '../support/sync-client.ts';
import { testDatabase } from '../support/test-database.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

const OLD = 'the-old-cursor-secret-of-at-least-32-characters';
const NEW = 'the-new-cursor-secret-of-at-least-32-characters';

/**
 * `CURSOR_SECRET` as a list (CONTRACT.md §5), rotated on many instances as
 * docs/DEPLOYMENT.md says: every instance is given the new secret second
 * (it verifies, the old one still signs), then first (it signs), then the
 * old one is removed once nothing it signed is in use. At each step the
 * instances of the step before and after run side by side. A sync that
 * follows the feed across the rotation (its token before, its token
 * after) never gets a 400 or a 410 and misses nothing, and a list walk
 * whose pages land on instances of either step goes on.
 */
describe('rotating CURSOR_SECRET on running instances', function () {
  this.timeout(120_000);
  /** The three steps of a rotation: [old], [old, new], [new, old], and [new] once the old is retired. */
  let steps: TestServer[];
  let key: string;
  let brandId: string;

  before(async () => {
    steps = await Promise.all([[OLD], [OLD, NEW], [NEW, OLD], [NEW]].map((secrets) => startTestServer({ cursorSecret: secrets })));
  });
  after(() => Promise.all((steps ?? []).map((server) => server.close())));
  beforeEach(async () => {
    let brand;
    ({ brand, key } = await resetToBrand('acme'));
    brandId = brand.id;
  });

  it('a sync follows the feed across the rotation: no 400, no 410, every change', async () => {
    const { db } = await testDatabase();
    const copy = newCopy();
    await insert('carton-sizes', brandId, [{ name: 'A' }, { name: 'B' }]);
    // Each batch on the next step's instance, and back on the step before, with writes between.
    const hops = [steps[0]!, steps[1]!, steps[0]!, steps[2]!, steps[1]!, steps[2]!, steps[3]!];
    for (const [i, server] of hops.entries()) {
      await syncBatch({ server, key, path: '/brands/acme/carton-sizes', copy, limit: 1 });
      expect(copy.token, `batch ${i}`).to.be.a('string');
      const [made] = await insert('carton-sizes', brandId, [{ name: `made ${i}` }]);
      await db('carton_sizes').where({ id: made!.id }).update({ name: `renamed ${i}` });
      if (i === 2) await db('carton_sizes').where({ name: 'A' }).delete();
    }
    await syncBatch({ server: steps[3]!, key, path: '/brands/acme/carton-sizes', copy, limit: 2 });
    const rows = (await db('carton_sizes').where({ brand_id: brandId }).select('id', 'name')) as { id: string; name: string }[];
    expect([...copy.records.keys()].sort()).to.deep.equal(rows.map((row) => row.id).sort());
    for (const row of rows) expect(copy.records.get(row.id)!.name, row.id).to.equal(row.name);
  });

  it('a list walk goes on whichever step its pages land on; once the old secret is gone, its cursors are 400 invalid_cursor', async () => {
    await insert('carton-sizes', brandId, Array.from({ length: 6 }, (_, i) => ({ name: `box ${i}` })));
    const names: string[] = [];
    let cursor: string | null = null;
    const signedByOld: string[] = [];
    // The walk's pages alternate between the instances of two neighbouring steps, as a load balancer would send them.
    for (const [i, server] of [steps[0]!, steps[1]!, steps[2]!, steps[1]!, steps[2]!, steps[3]!].entries()) {
      const page = await server.request(`/brands/acme/carton-sizes?limit=1${cursor ? `&cursor=${cursor}` : ''}`, { key });
      expect(page.status, `page ${i}: ${page.text}`).to.equal(200);
      names.push(...page.body.items.map((item: { name: string }) => item.name));
      cursor = page.body.nextCursor as string | null;
      if (i < 2 && cursor) signedByOld.push(cursor);
    }
    expect(names).to.deep.equal(['box 0', 'box 1', 'box 2', 'box 3', 'box 4', 'box 5']);
    // Made by an instance that still signed with the old secret: refused where it is no longer listed.
    for (const old of signedByOld) {
      const refused = await steps[3]!.request(`/brands/acme/carton-sizes?limit=1&cursor=${old}`, { key });
      expect(refused.status).to.equal(400);
      expect(refused.body.errorCode).to.equal('invalid_cursor');
      expect((await steps[2]!.request(`/brands/acme/carton-sizes?limit=1&cursor=${old}`, { key })).status).to.equal(200);
    }
  });
});
