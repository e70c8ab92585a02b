import { expect } from 'chai';
import {
  ApiError,
  FAMILIES,
  SyncTokenExpiredError,
  type CollectionPath,
  type FamilyPath,
  type CartonSize,
  type ChangeBatch,
  type ChangeItem,
  type ChangesPage,
} from '../../client/src/index.ts';
import { createChangesCodec } from '../../src/engine/request/changes-codec.ts';
import { createCursorCodec } from '../../src/engine/request/cursor-codec.ts';
import { insert } from '../support/fixtures.ts';
import { testDatabase } from '../support/test-database.ts';
import { TEST_CURSOR_SECRET } from '../support/test-server.ts';
import { requestsTo, useClientApi } from './use-client-api.ts';

/** `client.<family>.changes()` and `client.changes(path)` over the real changes feed (CONTRACT.md §6). */
describe('client: changes', () => {
  const api = useClientApi();
  const CHANGES = '/brands/acme/carton-sizes/changes';

  const sql = async (text: string, bindings: string[] = []): Promise<void> => {
    await (await testDatabase()).db.raw(text, bindings);
  };
  /** Reads a batch as the README's loop does: `next()` until done, whose value is the token. */
  async function drain<R>(batch: ChangeBatch<R>): Promise<{ items: ChangeItem<R>[]; token: string }> {
    const items: ChangeItem<R>[] = [];
    for (;;) {
      const step = await batch.next();
      if (step.done) return { items, token: step.value };
      items.push(step.value);
    }
  }
  /** Applies items in order, as a copy would: the last item for an id wins. */
  const apply = <R>(copy: Map<string, R>, items: readonly ChangeItem<R>[]): Map<string, R> => {
    for (const item of items) {
      if (item.change === 'delete') copy.delete(item.id);
      else copy.set(item.id, item.record);
    }
    return copy;
  };

  it('a full sync follows nextCursor over several pages, yields every record as an upsert, and returns the token', async () => {
    const sizes = await insert('carton-sizes', api.brand.id, Array.from({ length: 7 }, (_, i) => ({ name: `C${i}` })));
    const batch = api.client['carton-sizes'].changes({ limit: 3 });
    expect(batch.syncToken).to.equal(null);
    const { items, token } = await drain(batch);

    expect(requestsTo(api.server, CHANGES)).to.have.length(3);
    expect(items.map((item) => item.change)).to.deep.equal(Array(7).fill('upsert'));
    expect(new Set(items.map((item) => item.id))).to.deep.equal(new Set(sizes.map((size) => size.id)));
    const listed = await api.client.list('carton-sizes').toArray();
    expect(apply(new Map(), items)).to.deep.equal(new Map(listed.map((size) => [size.id, size])));
    expect(token).to.be.a('string').and.not.equal('');
    expect(batch.syncToken).to.equal(token);
  });

  it('with the token, gives only inserts, updates and deletes since, typed by family, in a for-await loop', async () => {
    const [a, b, c] = await insert('carton-sizes', api.brand.id, [{ name: 'A' }, { name: 'B' }, { name: 'C' }]);
    const copy = new Map<string, CartonSize>();
    const first = api.client.changes('carton-sizes');
    for await (const item of first) apply(copy, [item]);
    const [d] = await insert('carton-sizes', api.brand.id, [{ name: 'D' }]);
    await sql('update carton_sizes set name = ? where id = ?', ['B2', b!.id]);
    await sql('delete from carton_sizes where id = ?', [c!.id]);

    const second = api.client['carton-sizes'].changes({ syncToken: first.syncToken, limit: 2 });
    const seen: ChangeItem<CartonSize>[] = [];
    for await (const item of second) {
      // The record is the family's type on an upsert, null on a delete.
      if (item.change === 'upsert') expect(item.record.name).to.be.a('string');
      else expect(item.record).to.equal(null);
      seen.push(item);
    }
    // At least once (CONTRACT.md §6): an item may come again, so check what changed the copy.
    const changed = seen.filter((item) => (item.change === 'delete' ? copy.has(item.id) : JSON.stringify(copy.get(item.id)) !== JSON.stringify(item.record)));
    expect(changed.map((item) => [item.change, item.id]).sort()).to.deep.equal([['delete', c!.id], ['upsert', b!.id], ['upsert', d!.id]].sort());
    apply(copy, seen);
    expect([...copy.keys()].sort()).to.deep.equal([a!.id, b!.id, d!.id].sort());
    expect(copy.get(b!.id)!.name).to.equal('B2');
    expect(second.syncToken).to.be.a('string').and.not.equal(first.syncToken);
  });

  it('sends fields and applies them to each upserted record', async () => {
    await insert('carton-sizes', api.brand.id, [{ name: 'A', lengthCm: '40.50' }]);
    const { items } = await drain(api.client.changes('carton-sizes', { fields: ['name'] }));
    // Typed as Pick<CartonSize, 'name'>.
    const names: { name: string | null }[] = items.flatMap((item) => (item.change === 'upsert' ? [item.record] : []));
    expect(names).to.deep.equal([{ name: 'A' }]);
  });

  it('pages() yields whole pages, and a batch goes on from a saved nextCursor to the same token', async () => {
    const sizes = await insert('carton-sizes', api.brand.id, Array.from({ length: 5 }, (_, i) => ({ name: `C${i}` })));
    const pages: ChangesPage<CartonSize>[] = [];
    const whole = api.client['carton-sizes'].changes({ limit: 2 });
    for await (const page of whole.pages()) pages.push(page);
    expect(pages.map((page) => page.items.length)).to.deep.equal([2, 2, 1]);
    expect(pages.map((page) => page.syncToken === null)).to.deep.equal([true, true, false]);
    expect(pages[1]!.cursor).to.equal(pages[0]!.nextCursor);
    expect(whole.syncToken).to.equal(pages[2]!.syncToken);

    // A run that stopped after the first page resumes from its nextCursor: the rest of the batch, the same token's batch.
    const rest = await drain(api.client['carton-sizes'].changes({ cursor: pages[0]!.nextCursor, limit: 2 }));
    expect(rest.items.map((item) => item.id)).to.deep.equal(pages.slice(1).flatMap((page) => page.items.map((item) => item.id)));
    const every = [...pages[0]!.items, ...rest.items].map((item) => item.id).sort();
    expect(every).to.deep.equal(sizes.map((size) => size.id).sort());
    expect(rest.token).to.be.a('string');
  });

  it('a token older than the retention is a SyncTokenExpiredError (410), not retried; the loop starts again without one', async () => {
    await insert('carton-sizes', api.brand.id, [{ name: 'A' }]);
    const codec = createChangesCodec(createCursorCodec(TEST_CURSOR_SECRET));
    const old = codec.encodeToken({ brandId: api.brand.id, family: 'carton-sizes' }, { snapshot: '1:1:', madeAt: Date.now() - 31 * 86_400_000, mark: null });
    const batch = api.client['carton-sizes'].changes({ syncToken: old });
    const error = await batch.next().then(() => null, (caught: unknown) => caught);
    expect(error).to.be.instanceOf(SyncTokenExpiredError).and.instanceOf(ApiError);
    expect(error).to.include({ status: 410, errorCode: 'sync_token_expired', name: 'SyncTokenExpiredError' });
    expect((error as Error).message).to.contain('410 sync_token_expired').and.contain('start again without a token');
    expect(requestsTo(api.server, CHANGES).map((line) => line.status)).to.deep.equal([410]);
    expect(batch.syncToken).to.equal(null);

    const again = await drain(api.client['carton-sizes'].changes({ syncToken: null }));
    expect(again.items).to.have.length(1);
  });

  it('sends nothing until read, is read once, and a loop left early earns no token', async () => {
    await insert('carton-sizes', api.brand.id, [{ name: 'A' }, { name: 'B' }]);
    const unread = api.client.changes('carton-sizes');
    await new Promise((resolve) => setImmediate(resolve));
    expect(requestsTo(api.server, CHANGES)).to.have.length(0);
    expect(unread.syncToken).to.equal(null);

    const left = api.client.changes('carton-sizes', { limit: 1 });
    for await (const item of left) {
      expect(item.change).to.equal('upsert');
      break;
    }
    expect(left.syncToken).to.equal(null);
    expect(await left.next()).to.deep.equal({ done: true, value: undefined });
    expect(() => left.pages()).to.throw(TypeError, /read once/);
    const paged = api.client.changes('carton-sizes');
    paged.pages();
    expect(() => paged.pages()).to.throw(TypeError, /read once/);
    expect(await paged.next().then(() => null, (error: Error) => error)).to.be.instanceOf(TypeError);
  });

  it('every family with a list has its family client; the brand has none, nor a feed', async () => {
    const withFeed = (Object.keys(FAMILIES) as FamilyPath[]).filter((path) => !FAMILIES[path].tenant) as CollectionPath[];
    expect(withFeed).to.have.length(Object.keys(FAMILIES).length - 1);
    // Each one is there and none is shadowed by a member of the client (a family named `list` would be).
    for (const path of withFeed) expect(Object.keys(api.client[path]), path).to.deep.equal(['list', 'get', 'counts', 'changes', 'follow']);
    // @ts-expect-error: the brand has no family client
    expect(api.client.brands).to.equal(undefined);
    // @ts-expect-error: the brand has no changes feed
    const error = await api.client.changes('brands').next().then(() => null, (caught: ApiError) => caught);
    expect(error).to.include({ status: 404, errorCode: 'not_found' });
    expect(api.client.brand).to.equal('acme');
  });

  it('family clients list and get as the client does', async () => {
    const [size] = await insert('carton-sizes', api.brand.id, [{ name: 'A' }]);
    expect((await api.client['carton-sizes'].list({ fields: ['name'] }).toArray())).to.deep.equal([{ name: 'A' }]);
    expect((await api.client['carton-sizes'].get(size!.id)).name).to.equal('A');
  });
});
