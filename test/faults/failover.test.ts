/**
 * A failover, end to end (issue 25, item 2): the app serves through one
 * address (a TCP proxy, standing for a virtual IP or a managed endpoint) in
 * front of a primary with a streaming replica. The primary is killed
 * (`pg_ctl stop -m immediate`); while no primary answers, every request gets
 * the contract's 503 with `Retry-After` within a few seconds and `/readyz`
 * is 503 (CONTRACT.md §4). The replica is promoted and the address pointed at
 * it; the same process serves again within 10 s, with no restart: a cursor
 * taken before goes on with no repeat or gap, a sync token taken before gives
 * every change made before the kill and after it (no 410), the key works, and
 * the engine's queries are prepared again on the new primary. And an
 * address that answers nothing at all (black-holed) gets its 503 within 7 s
 * and a margin, never a hang.
 *
 * (A read replica of DATABASE_REPLICA_URLS that dies and comes back is
 * test/cluster/multi-node.test.ts, "fails no request while the replica is
 * stopped under traffic".)
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { openPostgres, POSTGRES_TIMEOUTS } from '../../src/db/connection/open-database.ts';
import { insertRecords } from '../../src/db/insert-records.ts';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../../src/engine/request/api-error.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../src/server/middleware/write-error.ts';
import { watchReplication } from '../cluster/multi-node-support.ts';
import { describeDatabaseFree } from '../support/database-free.ts';
import { expectErrorBody } from '../support/error-body.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { waitFor } from '../support/wait-for.ts';
import { BRAND, CARTON_SIZES, catalogCluster, registry, startAppServer, type AppServer, type TimedResponse } from './fault-support.ts';
import { LocalPostgres } from './local-postgres.ts';

/**
 * The longest any answer may take while no primary answers. A dead primary
 * behind the address refuses at once (the proxy closes the connection), so
 * the answers are fast; 7 s is the bound open-database.ts promises even for a
 * database that answers nothing (2 s for a connection, 5 s for a query).
 */
const OUTAGE_ANSWER_MS = 7_000;
/**
 * While the address answers nothing at all: a request waits at most 2 s for a
 * connection and 5 s for a query (open-database.ts), plus a margin for a busy
 * machine.
 */
const SILENT_ANSWER_MS = POSTGRES_TIMEOUTS.acquireMs + POSTGRES_TIMEOUTS.queryMs + 1_500;
/** The issue's bound: serving again this soon after the address points at the new primary. */
const RECOVERY_MS = 10_000;
/** A request with no answer by then has hung. */
const HANG_MS = 20_000;
const CARTONS = `/brands/${BRAND}/carton-sizes`;

interface Change {
  readonly change: string;
  readonly id: string;
  readonly record: { name: string } | null;
}

describeDatabaseFree?.('faults: the primary fails over to its streaming replica behind one address', function () {
  this.timeout(120_000);
  let primary: LocalPostgres;
  let replica: LocalPostgres;
  let proxy: TcpProxy;
  let server: AppServer;
  let key: string;
  let brandId: string;

  before(async function () {
    this.timeout(90_000);
    ({ cluster: primary, key, brandId } = await catalogCluster());
    replica = await LocalPostgres.replicaOf(primary);
    await replica.start();
    proxy = await startTcpProxy({ targetPort: primary.port });
    // A pool of 2: the check of prepared statements below looks at every connection the server has.
    server = await startAppServer({ url: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`, poolMax: 2 });
  });
  after(async function () {
    this.timeout(60_000);
    await server?.close();
    await proxy?.close();
    await replica?.destroy();
    await primary?.destroy();
  });

  const api = (path: string): Promise<TimedResponse> => server.api(path, { key, timeoutMs: HANG_MS });

  /** Writes on a cluster directly (not through the app): an insert, an update and a delete; returns the names they leave. */
  async function write(url: string, { update, remove }: { update: string; remove: string }): Promise<string> {
    const database = openPostgres({ url, poolMax: 1, boundStatements: false });
    try {
      const id = randomUUID();
      const at = new Date().toISOString();
      await insertRecords({
        db: database.db, resource: (await registry()).get('carton-sizes'), brandId,
        records: [{ id, name: `Carton added ${id}`, lengthCm: '1.00', widthCm: '1.00', heightCm: '1.00', createdAt: at, updatedAt: at }],
      });
      await database.db('carton_sizes').where({ id: update }).update({ name: `Renamed ${update}` });
      await database.db('carton_sizes').where({ id: remove }).delete();
      return id;
    } finally {
      await database.close();
    }
  }

  /** The brand's carton sizes on a cluster, in the list's order, as id → name. */
  async function rowsOn(db: Knex): Promise<Map<string, string>> {
    const rows = (await db('carton_sizes').where({ brand_id: brandId }).orderBy([{ column: 'created_at' }, { column: 'id' }]).select('id', 'name')) as { id: string; name: string }[];
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** One batch of the changes feed from `token` (null: from the start), every page; its changes and the next token. */
  async function syncFrom(token: string | null): Promise<{ changes: Change[]; token: string }> {
    const changes: Change[] = [];
    let url = `${CARTONS}/changes?limit=10${token === null ? '' : `&syncToken=${encodeURIComponent(token)}`}`;
    for (let page = 0; page < 100; page++) {
      const response = await api(url);
      expect(response.status, `changes: ${JSON.stringify(response.body)}`).to.equal(200);
      changes.push(...(response.body.items as Change[]));
      if (response.body.nextCursor === null) return { changes, token: response.body.syncToken as string };
      url = `${CARTONS}/changes?cursor=${encodeURIComponent(response.body.nextCursor as string)}`;
    }
    throw new Error('the batch never ended');
  }

  /** The rest of a walk from `cursor`: every id, page by page. */
  async function walkFrom(cursor: string): Promise<string[]> {
    const ids: string[] = [];
    let next: string | null = cursor;
    while (next !== null) {
      const response = await api(`${CARTONS}?limit=7&cursor=${encodeURIComponent(next)}`);
      expect(response.status, `walk: ${JSON.stringify(response.body)}`).to.equal(200);
      ids.push(...(response.body.items as { id: string }[]).map((item) => item.id));
      next = response.body.nextCursor as string | null;
    }
    return ids;
  }

  /** The engine's prepared statements on every connection of the server's pool (its size is 2). */
  async function preparedOnServer(): Promise<string[]> {
    const client = server.db.client as { acquireConnection(): Promise<{ query(text: string): Promise<{ rows: { name: string }[] }> }>; releaseConnection(c: unknown): Promise<void> };
    const held = [await client.acquireConnection(), await client.acquireConnection()];
    try {
      const names = await Promise.all(held.map(async (c) => (await c.query(`select name from pg_prepared_statements where name like 'bcat\\_%'`)).rows.map((row) => row.name)));
      return names.flat();
    } finally {
      for (const c of held) await client.releaseConnection(c);
    }
  }

  function expectOutageAnswer(response: TimedResponse, what: string): void {
    expect(response.status, `${what} while no primary answers: ${JSON.stringify(response.body)}`).to.equal(503);
    expectErrorBody(response.body, 'internal_error', { details: 'forbidden' });
    expect(response.body.error).to.equal(DATABASE_UNAVAILABLE_MESSAGE);
    expect(response.headers['retry-after'], what).to.equal(String(DATABASE_RETRY_AFTER_SECONDS));
    expect(response.ms, `${what} took ${Math.round(response.ms)} ms`).to.be.below(OUTAGE_ANSWER_MS);
  }

  it('answers 503 with Retry-After while no primary answers, then serves on the promoted replica within 10 s on the same process: cursor, sync token, key and prepared statements as before', async () => {
    // Before: a walk taken mid-way, a copy kept by the changes feed, a get (prepared on the old primary).
    const first = await api(`${CARTONS}?limit=7`);
    expect(first.status).to.equal(200);
    expect(first.body.totalItems).to.equal(CARTON_SIZES);
    const page1 = (first.body.items as { id: string }[]).map((item) => item.id);
    const cursor = first.body.nextCursor as string;
    const initial = await syncFrom(null);
    expect(initial.changes).to.have.length(CARTON_SIZES);
    expect(page1).to.have.length(7);
    // Rows the walk has not passed yet, to change: page 1 was read before, and stays as it was read.
    const cartons = initial.changes.map((change) => change.id).filter((id) => !page1.includes(id));
    expect((await api(`${CARTONS}/${cartons[20]}`)).status).to.equal(200);
    expect(await preparedOnServer(), 'the engine prepares its queries on the first primary').to.not.be.empty;

    // Changes the replica has when the primary dies: Postgres kept them, so the token must give them.
    const replication = watchReplication({ primaryUrl: primary.url, replicaUrl: replica.url });
    const addedBefore = await write(primary.url, { update: cartons[10]!, remove: cartons[11]! });
    await replication.caughtUp();
    await replication.close();

    await primary.stop({ mode: 'immediate' });
    const outage: { what: string; response: TimedResponse }[] = [];
    const probes: Record<string, string> = {
      list: `${CARTONS}?limit=5`, get: `${CARTONS}/${cartons[3]}`, walk: `${CARTONS}?limit=7&cursor=${encodeURIComponent(cursor)}`,
      changes: `${CARTONS}/changes?syncToken=${encodeURIComponent(initial.token)}`,
    };
    // Rounds of every kind of request, two at a time, until each kind has been answered twice with the primary down.
    await waitFor(async () => {
      for (const [what, path] of Object.entries(probes)) {
        const answers = await Promise.all([api(path), api(path)]);
        outage.push(...answers.map((response) => ({ what, response })));
      }
      return outage.length >= 16;
    }, { timeoutMs: 30_000, intervalMs: 10, what: 'answers while the primary is down' });
    const ready = await server.get('/readyz', { timeoutMs: HANG_MS });
    for (const { what, response } of outage) expectOutageAnswer(response, what);
    expect(ready.status, `/readyz while no primary answers: ${JSON.stringify(ready.body)}`).to.equal(503);
    expect(ready.body).to.include({ status: 'unavailable', database: 'down' });
    expect((await server.get('/healthz')).status, 'the process still serves HTTP').to.equal(200);

    // The failover: promote, point the address at the new primary, drop what the proxy still carries.
    await replica.promote();
    proxy.retarget(replica.port);
    proxy.dropAll();
    const pointed = performance.now();
    await waitFor(async () => (await api(`${CARTONS}?limit=5`)).status === 200, { timeoutMs: RECOVERY_MS, intervalMs: 50, what: 'the app to serve on the new primary' });
    expect(performance.now() - pointed).to.be.below(RECOVERY_MS);
    expect((await server.get('/readyz')).body).to.include({ status: 'ok', database: 'ready' });

    // Changes on the new primary, after the failover.
    const addedAfter = await write(replica.url, { update: cartons[15]!, remove: cartons[16]! });
    const admin = openPostgres({ url: replica.url, poolMax: 1, boundStatements: false });
    let rows: Map<string, string>;
    try {
      rows = await rowsOn(admin.db);
    } finally {
      await admin.close();
    }
    expect(rows.has(addedBefore) && rows.has(addedAfter), 'both inserts are on the new primary').to.equal(true);

    // The cursor goes on where page 1 ended: every later row once, in order, the rows added since (at the end) included.
    const rest = await walkFrom(cursor);
    expect([...page1, ...rest], 'the walk across the failover').to.deep.equal([...rows.keys()]);
    // The sync token of before: every change since, made before the kill and after it, and the copy equals the database.
    const copy = new Map(initial.changes.map((change) => [change.id, change.record!.name]));
    const after = await syncFrom(initial.token);
    for (const change of after.changes) {
      if (change.change === 'delete') copy.delete(change.id);
      else copy.set(change.id, change.record!.name);
    }
    expect(new Set(after.changes.map((change) => change.id)), 'the changes since the token').to.include.all.keys(addedBefore, cartons[10]!, cartons[11]!, addedAfter, cartons[15]!, cartons[16]!);
    expect(Object.fromEntries(copy), 'the copy kept by the feed').to.deep.equal(Object.fromEntries(rows));

    // The key of before, a get, and the engine's statements prepared again on the new primary's connections.
    const get = await api(`${CARTONS}/${cartons[20]}`);
    expect(get.status).to.equal(200);
    expect(get.body.id).to.equal(cartons[20]);
    expect(await preparedOnServer(), 'the engine prepares its queries again on the new primary').to.not.be.empty;
    const since = server.logs.filter((line) => line.msg === 'unexpected error');
    expect(since.map((line) => JSON.stringify(line.err)), 'no request failed with a 500, before, during or after').to.deep.equal([]);
  });

  it(`answers 503 with Retry-After within ${SILENT_ANSWER_MS} ms while the address answers nothing at all (black-holed), and serves again once it does`, async () => {
    expect((await api(`${CARTONS}?limit=5`)).status).to.equal(200);
    proxy.blackHole(true);
    let answers: TimedResponse[];
    let ready: TimedResponse;
    try {
      // More requests than the pool (2) holds: some wait on a silent pooled connection, some for a connection.
      const requests = Array.from({ length: 5 }, (_, i) => api(i % 2 === 0 ? `${CARTONS}?limit=5` : `${CARTONS}/changes?limit=5`));
      ready = await server.get('/readyz', { timeoutMs: HANG_MS });
      answers = await Promise.all(requests);
    } finally {
      proxy.blackHole(false);
    }
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).to.equal(503);
      expectErrorBody(answer.body, 'internal_error', { details: 'forbidden' });
      expect(answer.headers['retry-after']).to.equal(String(DATABASE_RETRY_AFTER_SECONDS));
      expect(answer.ms, `a request took ${Math.round(answer.ms)} ms`).to.be.below(SILENT_ANSWER_MS);
    }
    expect(ready.status, `/readyz while the address is silent: ${JSON.stringify(ready.body)}`).to.equal(503);
    // The connections that waited are closed, not kept: the pool serves on new ones (a black hole loses bytes for good).
    await waitFor(async () => (await api(`${CARTONS}?limit=5`)).status === 200, { timeoutMs: RECOVERY_MS, intervalMs: 50, what: 'the app to serve once the address answers' });
    const again = await Promise.all(Array.from({ length: 4 }, () => api(`${CARTONS}?limit=5`)));
    expect(again.map((answer) => answer.status)).to.deep.equal([200, 200, 200, 200]);
  });
});
