import { expect } from 'chai';
import pg from 'pg';
import { openPostgres, type Database } from '../../src/db/connection/open-database.ts';
import { migrateToLatest } from '../../src/db/schema/migrate-to-latest.ts';
import { createKey } from '../../src/server/auth/key-admin.ts';
import { seededRandom } from '../../tools/shared/seeded-random.ts';
import { expectError } from '../resources/helpers.ts';
import { catalogCluster, registry } from '../faults/fault-support.ts';
import { copyDatabase, enableLogicalReplication, subscribe, type LogicalSubscription } from '../faults/logical-cluster.ts';
import { canRunLocalPostgres, type LocalPostgres } from '../faults/local-postgres.ts';
import { describeDatabaseFree } from '../support/database-free.ts';
import { newCopy, syncBatch, type SyncCopy } from '../support/sync-client.ts';
import { brandStates, SyncModel } from '../support/sync-model.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';

/**
 * The changes feed of a database fed by logical replication (CONTRACT.md §6,
 * docs/DEPLOYMENT.md "Fed by logical replication"): writers write to the
 * publisher, the subscription applies their transactions to the subscriber
 * (in sessions with `session_replication_role = replica`, where only
 * `ENABLE ALWAYS` triggers fire), and the service serves the subscriber.
 * Both databases are migrated by the project's migrations (the subscriber is
 * a copy of the migrated publisher); the publication leaves `sync_xid` out:
 * the subscriber stamps its own.
 */
const SEEDS = Math.max(1, Math.ceil(Number(process.env.SYNC_MODEL_SEEDS ?? 20) / 5));
/** carton_sizes and the tables whose foreign keys lead to it: a TRUNCATE ... CASCADE on the publisher is applied to all of them. */
const PUBLISHED = ['brands', 'carton_sizes', 'packing_templates', 'shipment_cartons', 'shipment_carton_items'];

if (canRunLocalPostgres()) describeDatabaseFree?.('the changes feed of a logical-replication subscriber (Postgres)', function () {
  this.timeout(60_000 + SEEDS * 5_000);
  let cluster: LocalPostgres;
  let subscriber: Database;
  let subscription: LogicalSubscription;
  let server: TestServer;
  let publisherUrl: string;

  before(async function () {
    this.timeout(120_000);
    cluster = (await catalogCluster()).cluster;
    await cluster.stop();
    await enableLogicalReplication(cluster);
    await cluster.start();
    publisherUrl = cluster.url;
    const subscriberUrl = await copyDatabase({ cluster, from: 'postgres', to: 'subscriber' });
    subscriber = openPostgres({ url: subscriberUrl, poolMax: 4, boundStatements: false });
    // Already at the latest migration (a copy of the migrated publisher): migrating again is a no-op, as on a deployment.
    await migrateToLatest(subscriber.db);
    subscription = await subscribe({ cluster, publisher: 'postgres', subscriber: 'subscriber', tables: PUBLISHED, without: ['sync_xid'] });
    server = await startTestServer({ db: subscriber.db, registry: await registry(), redisUrl: null });
  });

  afterEach(async function () {
    // The apply worker's errors are in the cluster's log only: a failing test shows them.
    if (this.currentTest?.state === 'failed') console.error((await cluster.log()).slice(-4000));
  });

  after(async function () {
    this.timeout(60_000);
    await server?.close();
    await subscription?.close();
    await subscriber?.close();
    await cluster?.destroy();
  });

  async function connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: publisherUrl });
    await client.connect();
    await client.query("set lock_timeout = '100ms'");
    return client;
  }

  /** Brands written on the publisher (the subscription brings them) and a key of the subscriber's own for the first. */
  async function brandsAndKey(slugs: [string, string]): Promise<{ ids: [string, string]; key: string }> {
    const client = await connect();
    try {
      const { rows } = await client.query('insert into brands (slug, name) values ($1, $1), ($2, $2) returning id', slugs);
      await subscription.caughtUp();
      const { key } = await createKey(subscriber.db, { brands: [slugs[0]], global: false, expiresAt: null });
      return { ids: [rows[0].id, rows[1].id], key };
    } finally {
      await client.end();
    }
  }

  it(`model: writers on the publisher; every batch read from the subscriber ends as it began or newer, the last one equal to the publisher (${SEEDS} seeds)`, async () => {
    const { ids: [a, b], key } = await brandsAndKey(['sub-a', 'sub-b']);
    const path = '/brands/sub-a/carton-sizes';
    const writers = await Promise.all([connect(), connect(), connect()]);
    const reader = await connect();
    try {
      for (let seed = 1; seed <= SEEDS; seed++) {
        const random = seededRandom(seed);
        await reader.query('delete from carton_sizes where brand_id = any($1)', [[a, b]]);
        const { rows } = await reader.query(`insert into carton_sizes (brand_id, name) select $1, 's' || n from generate_series(1, 5) n returning id`, [a]);
        const model = new SyncModel(a, b, rows.map((row) => row.id as string));
        let stopped = false;
        const running = writers.map((client, i) => model.writer({ client, random: seededRandom(seed * 100 + i), stop: () => stopped }));
        const copy: SyncCopy = newCopy();
        const until = Date.now() + 700;
        for (let batch = 1; Date.now() < until; batch++) {
          // The publisher's state, then the subscriber made to have applied at least that much: the batch begins at it or later.
          const before = await brandStates(reader, a);
          await subscription.caughtUp();
          await syncBatch({ server, key, path, copy, limit: 1 + Math.floor(random() * 6) });
          model.expectBatchEnd({ copy, before, label: `seed ${seed}, batch ${batch}` });
        }
        stopped = true;
        await Promise.all(running);
        await subscription.caughtUp();
        await syncBatch({ server, key, path, copy, limit: 1 + Math.floor(random() * 6) });
        const held = new Map([...copy.records].map(([id, record]) => [id, record.name]));
        expect(held, `seed ${seed}`).to.deep.equal((await brandStates(reader, a)).states);
        expect(model.written.some((write) => write.state === null), `seed ${seed}: deletes or moves were applied`).to.equal(true);
      }
    } finally {
      await Promise.all([...writers, reader].map((client) => client.end()));
    }
  });

  it('a TRUNCATE on the publisher, applied by the subscription: the subscriber\'s tokens older than it are 410, then a full sync equals the publisher', async () => {
    const { ids: [a], key } = await brandsAndKey(['sub-c', 'sub-d']);
    const path = '/brands/sub-c/carton-sizes';
    const client = await connect();
    try {
      await client.query(`insert into carton_sizes (brand_id, name) values ($1, 'before 1'), ($1, 'before 2')`, [a]);
      await subscription.caughtUp();
      const copy = newCopy();
      await syncBatch({ server, key, path, copy });
      expect(copy.records.size).to.equal(2);
      await client.query('truncate carton_sizes cascade');
      await client.query(`insert into carton_sizes (brand_id, name) values ($1, 'after')`, [a]);
      await subscription.caughtUp();
      expectError(await server.request(`${path}/changes?syncToken=${copy.token}`, { key }), 410, 'sync_token_expired');
      const fresh = newCopy();
      await syncBatch({ server, key, path, copy: fresh });
      const held = new Map([...fresh.records].map(([id, record]) => [id, record.name]));
      expect(held).to.deep.equal((await brandStates(client, a)).states);
      expect([...held.values()]).to.deep.equal(['after']);
    } finally {
      await client.end();
    }
  });
});
