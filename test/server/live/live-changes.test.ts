import { expect } from 'chai';
import { LIVE_WAITS_PER_KEY } from '../../../src/server/live/live-changes.ts';
import { expectError } from '../../resources/helpers.ts';
import { createBrand, insert, resetToBrand } from '../../support/fixtures.ts';
import { newCopy, syncBatch } from '../../support/sync-client.ts';
import { testDatabase } from '../../support/test-database.ts';
import { startTestServer } from '../../support/test-server.ts';
import { useServer } from '../../support/use-server.ts';
import { waitFor } from '../../support/wait-for.ts';

/**
 * Changes calls that wait (CONTRACT.md §7), over HTTP on the run's database:
 * answered by a commit to their family of their brand and by nothing else,
 * the key's places, a hang-up, the stop, and what `wait` may be given with.
 * Short waits and events, no fixed sleep.
 */
describe('live changes: GET .../changes?syncToken=...&wait=N', function () {
  this.timeout(30_000);
  const server = useServer({}, { startTimeoutMs: 180_000 });
  let brand: { id: string; slug: string };
  let key: string;
  const cartons = '/brands/acme/carton-sizes';

  beforeEach(async () => {
    ({ brand, key } = await resetToBrand('acme'));
  });

  /** A token after which nothing changed yet. */
  async function freshToken(path = cartons): Promise<string> {
    const copy = newCopy();
    await syncBatch({ server, key, path, copy });
    return copy.token!;
  }
  const waited = (token: string, seconds: number, path = cartons, init: RequestInit = {}) => fetch(
    `${server.baseUrl}${path}/changes?syncToken=${encodeURIComponent(token)}&wait=${seconds}`,
    { headers: { Authorization: `Bearer ${key}` }, ...init },
  );

  it('holds an empty batch until a change to the family of the brand commits, then answers with it within a second', async () => {
    const token = await freshToken();
    const started = Date.now();
    const answer = waited(token, 10);
    await waitFor(async () => server.live.waiting() === 1, { intervalMs: 10, what: 'the request waiting' });
    const [row] = await insert('carton-sizes', brand.id, [{ name: 'live' }]);
    const committed = Date.now();
    const response = await answer;
    const body = await response.json() as { items: { id: string; change: string }[]; nextCursor: null; syncToken: string };
    expect(response.status).to.equal(200);
    expect(body.items.map((item) => [item.change, item.id])).to.deep.equal([['upsert', row!.id]]);
    expect(body.syncToken).to.be.a('string');
    expect(Date.now() - committed, 'commit to answer').to.be.below(1000);
    expect(Date.now() - started).to.be.below(10_000);
    expect(server.live.waiting()).to.equal(0);
  });

  it('a TRUNCATE while a request waits wakes it with 410 sync_token_expired (the copy must start again), and so does its token after', async () => {
    await insert('carton-sizes', brand.id, [{ name: 'kept' }]);
    let token = await freshToken();
    // A transaction open elsewhere on the cluster makes the next batch repeat the row (at least once): follow to an empty one.
    for (let n = 0; n < 50; n++) {
      const next = await server.request(`${cartons}/changes?syncToken=${encodeURIComponent(token)}`, { key });
      token = next.body.syncToken;
      if (next.body.items.length === 0) break;
    }
    const answer = waited(token, 10);
    await waitFor(async () => server.live.waiting() === 1, { intervalMs: 10, what: 'the request waiting' });
    await (await testDatabase()).db.raw('truncate carton_sizes cascade');
    const response = await answer;
    expect(response.status).to.equal(410);
    expect(((await response.json()) as { errorCode: string }).errorCode).to.equal('sync_token_expired');
    const again = await server.request(`${cartons}/changes?syncToken=${encodeURIComponent(token)}&wait=1`, { key });
    expect(again.status, 'a quiet brand asked again: still 410, not a quiet token past the TRUNCATE').to.equal(410);
  });

  it('answers at once when the batch has items, as without wait', async () => {
    const token = await freshToken();
    await insert('carton-sizes', brand.id, [{ name: 'already' }]);
    const response = await waited(token, 30);
    expect(((await response.json()) as { items: unknown[] }).items).to.have.length(1);
  });

  it('a change to another brand or another family does not answer early: the empty batch and a token when the time is up', async () => {
    const other = await createBrand('other-brand');
    const token = await freshToken();
    const started = Date.now();
    const answer = waited(token, 1);
    await waitFor(async () => server.live.waiting() === 1, { intervalMs: 10, what: 'the request waiting' });
    await insert('carton-sizes', other.id, [{ name: 'elsewhere' }]);
    await insert('goods-receipt-lines', brand.id, [{}]);
    const response = await answer;
    const body = await response.json() as { items: unknown[]; nextCursor: null; syncToken: string };
    expect(Date.now() - started).to.be.at.least(950);
    expect(body).to.include({ nextCursor: null });
    expect(body.items).to.deep.equal([]);
    const copy = { records: new Map(), token: body.syncToken };
    expect((await syncBatch({ server, key, path: cartons, copy })).items).to.deep.equal([]);
  });

  it('a wait nothing interrupted, for a token the watcher proves unchanged, answers with that token again: no token made, nothing missed', async () => {
    const token = await freshToken();
    // The first wait may have to read (no probe has seen the brand yet); the next ones are proven quiet by the watcher.
    const first = await (await waited(token, 1)).json() as { syncToken: string };
    const again = await (await waited(first.syncToken, 1)).json() as { items: unknown[]; syncToken: string };
    expect(again.items).to.deep.equal([]);
    expect(again.syncToken, 'the token it was sent').to.equal(first.syncToken);
    // The same token still catches what commits after it.
    const [made] = await insert('carton-sizes', brand.id, [{ name: 'after the echo' }]);
    const copy = { records: new Map(), token: again.syncToken };
    expect((await syncBatch({ server, key, path: cartons, copy })).items.map((item) => item.id)).to.deep.equal([made!.id]);
  });

  it(`a key holds ${LIVE_WAITS_PER_KEY} waiting requests at most: past it 429 with Retry-After; a client that hangs up frees its place`, async () => {
    const token = await freshToken();
    const hangUps = Array.from({ length: LIVE_WAITS_PER_KEY }, () => new AbortController());
    const answers = hangUps.map((controller) => waited(token, 20, cartons, { signal: controller.signal }).catch(() => null));
    await waitFor(async () => server.live.waiting() === LIVE_WAITS_PER_KEY, { intervalMs: 10, what: 'every place taken' });
    const refused = await waited(token, 20);
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.at.least(0);
    expect(((await refused.json()) as { errorCode: string }).errorCode).to.equal('rate_limited');
    hangUps[0]!.abort();
    await waitFor(async () => server.live.waiting() === LIVE_WAITS_PER_KEY - 1, { intervalMs: 10, what: 'the place freed' });
    const late = waited(token, 20);
    await waitFor(async () => server.live.waiting() === LIVE_WAITS_PER_KEY, { intervalMs: 10, what: 'the freed place taken again' });
    for (const controller of hangUps) controller.abort();
    await insert('carton-sizes', brand.id, [{ name: 'wake' }]);
    expect(((await (await late).json()) as { items: unknown[] }).items).to.have.length(1);
    await Promise.all(answers);
    await waitFor(async () => server.live.waiting() === 0, { intervalMs: 10, what: 'every place freed' });
  });

  it('stopping the instance (SIGTERM in main.ts) answers every waiting request at once with the empty batch and a token', async () => {
    const other = await startTestServer();
    try {
      const token = await freshToken();
      const answers = [1, 2, 3].map(() => fetch(`${other.baseUrl}${cartons}/changes?syncToken=${encodeURIComponent(token)}&wait=30`, { headers: { Authorization: `Bearer ${key}` } }));
      await waitFor(async () => other.live.waiting() === 3, { intervalMs: 10, what: 'three requests waiting' });
      const stopped = Date.now();
      other.live.stop();
      for (const response of await Promise.all(answers)) {
        const body = await response.json() as { items: unknown[]; nextCursor: null; syncToken: string };
        expect(response.status).to.equal(200);
        expect(body.items).to.deep.equal([]);
        expect(body.syncToken).to.be.a('string');
      }
      expect(Date.now() - stopped).to.be.below(2000);
    } finally {
      await other.close();
    }
  });

  it('wait without a token, with a cursor, or outside 0 to 60 whole seconds is 400 invalid_parameter naming wait', async () => {
    await insert('carton-sizes', brand.id, [{ name: 'a' }, { name: 'b' }]);
    const token = await freshToken();
    const first = await server.request(`${cartons}/changes?limit=1`, { key });
    for (const query of ['wait=5', 'wait=0', `cursor=${first.body.nextCursor}&wait=5`, `syncToken=${encodeURIComponent(token)}&wait=61`,
      `syncToken=${encodeURIComponent(token)}&wait=-1`, `syncToken=${encodeURIComponent(token)}&wait=1.5`, `syncToken=${encodeURIComponent(token)}&wait=soon`]) {
      const response = await server.request(`${cartons}/changes?${query}`, { key });
      expectError(response, 400, 'invalid_parameter');
      expect(response.body.details.map((issue: { parameter: string }) => issue.parameter), query).to.include('wait');
    }
    const zero = await server.request(`${cartons}/changes?syncToken=${encodeURIComponent(token)}&wait=0`, { key });
    expect(zero.status).to.equal(200);
  });

  it("a commit that a batch's empty read missed still wakes it: writes while clients wait, every copy equals the database at the end", async () => {
    const db = (await testDatabase()).db;
    const copies = [newCopy(), newCopy(), newCopy()];
    for (const copy of copies) await syncBatch({ server, key, path: cartons, copy });
    const lateness: number[] = [];
    /** When each client last had an answer with items. */
    const answered = copies.map(() => 0);
    let writing = true;
    const followers = copies.map(async (copy, c) => {
      while (writing) {
        const response = await waited(copy.token!, 2);
        const body = await response.json() as { items: { id: string; change: string; record: Record<string, unknown> | null }[]; syncToken: string };
        expect(response.status).to.equal(200);
        if (body.items.length > 0) answered[c] = Date.now();
        for (const item of body.items) {
          if (item.change === 'delete') copy.records.delete(item.id);
          else copy.records.set(item.id, item.record!);
        }
        copy.token = body.syncToken;
      }
    });
    for (let n = 0; n < 12; n++) {
      await waitFor(async () => server.live.waiting() === copies.length, { intervalMs: 5, what: 'every client waiting' });
      const ids = [...copies[0]!.records.keys()];
      const committed = Date.now();
      if (n % 3 === 2 && ids.length > 0) await db.raw('delete from carton_sizes where id = ?', [ids[0]!]);
      else if (n % 3 === 1 && ids.length > 0) await db.raw('update carton_sizes set name = ? where id = ?', [`u${n}`, ids[ids.length - 1]!]);
      else await insert('carton-sizes', brand.id, [{ name: `n${n}` }]);
      // Each client's own answer: a client answered may be waiting again before a look at the count of those waiting.
      await waitFor(async () => answered.every((at) => at >= committed), { intervalMs: 5, timeoutMs: 5000, what: 'every client answered' });
      lateness.push(Math.max(...answered) - committed);
    }
    writing = false;
    await insert('carton-sizes', brand.id, [{ name: 'last' }]);
    await Promise.all(followers);
    const listed = await server.request(`${cartons}?limit=100`, { key });
    const expected = new Map(listed.body.items.map((record: { id: string }) => [record.id, record]));
    for (const copy of copies) {
      await syncBatch({ server, key, path: cartons, copy });
      expect(copy.records).to.deep.equal(expected);
    }
    expect(Math.max(...lateness), `commit to answer, ms: ${lateness.join(', ')}`).to.be.below(1500);
  });
});

// Another connection holding a transaction open: only Postgres has one (the embedded database serves one connection).
if (process.env.DATABASE_URL) describe('live changes: transactions held open beside the waits (Postgres)', function () {
  this.timeout(60_000);

  it('a wait that times out hands back a token that keeps the TRUNCATEs it saw: the next call is not a 410', async () => {
    const server = await startTestServer();
    const { url } = await testDatabase();
    const { Client } = (await import('pg')).default;
    const holder = new Client({ connectionString: url! });
    await holder.connect();
    try {
      const { brand, key } = await resetToBrand('acme');
      // An open transaction keeps the snapshots' xmin below the TRUNCATE, so tokens carry it as seen.
      await holder.query('begin');
      await holder.query('select pg_current_xact_id()');
      await insert('carton-sizes', brand.id, [{ name: 'gone' }]);
      await (await testDatabase()).db.raw('truncate carton_sizes cascade');
      const copy = newCopy();
      await syncBatch({ server, key, path: '/brands/acme/carton-sizes', copy });
      const timedOut = await server.request(`/brands/acme/carton-sizes/changes?syncToken=${encodeURIComponent(copy.token!)}&wait=1`, { key });
      expect(timedOut.status, timedOut.text).to.equal(200);
      expect(timedOut.body.items).to.deep.equal([]);
      const next = await server.request(`/brands/acme/carton-sizes/changes?syncToken=${encodeURIComponent(timedOut.body.syncToken)}`, { key });
      expect(next.status, 'the TRUNCATE is in the copy already').to.equal(200);
    } finally {
      await holder.query('rollback').catch(() => undefined);
      await holder.end();
      await server.close();
    }
  });

  it('another brand\'s transaction, running when the token was made, that commits during the wait wakes nobody: no read, the token it was sent', async () => {
    const server = await startTestServer();
    const { url, db } = await testDatabase();
    const { Client } = (await import('pg')).default;
    const elsewhere = new Client({ connectionString: url! });
    await elsewhere.connect();
    try {
      const { key } = await resetToBrand('acme');
      const other = await createBrand('globex');
      const path = '/brands/acme/carton-sizes';
      await elsewhere.query('begin');
      await elsewhere.query('insert into carton_sizes (brand_id, name) values ($1, $2)', [other.id, 'elsewhere']);
      // A transaction after it commits: from now on every snapshot lists it as running.
      await db.raw('select pg_current_xact_id()');
      const copy = newCopy();
      await syncBatch({ server, key, path, copy });
      // A first wait lets the watcher see the brand; the token it answers still lists the running transaction.
      const first = await server.request(`${path}/changes?syncToken=${encodeURIComponent(copy.token!)}&wait=1`, { key });
      const since = first.body.syncToken as string;
      const answer = server.request(`${path}/changes?syncToken=${encodeURIComponent(since)}&wait=2`, { key });
      await waitFor(async () => server.live.waiting() === 1, { intervalMs: 10, what: 'the request waiting' });
      await elsewhere.query('commit');
      const again = await answer;
      expect(again.status, again.text).to.equal(200);
      expect(again.body.items).to.deep.equal([]);
      expect(again.body.syncToken, 'the token it was sent: nothing woke the wait for a read').to.equal(since);
    } finally {
      await elsewhere.query('rollback').catch(() => undefined);
      await elsewhere.end();
      await server.close();
    }
  });
});
