import pg from 'pg';
import { catalogCluster, PROCESS_CURSOR_SECRET } from '../../test/faults/fault-support.ts';
import { LocalPostgres } from '../../test/faults/local-postgres.ts';
import { LocalRedis } from '../../test/support/local-redis.ts';
import { startTcpProxy, type TcpProxy } from '../../test/support/tcp-proxy.ts';
import { watchReplication } from '../../test/cluster/multi-node-support.ts';
import { freePort, startSoakServer, type SoakServer } from './soak-server.ts';

/**
 * What a scheduled-fault soak runs on, all of its own and thrown away after:
 * a Postgres primary with the fault tests' catalog (one brand of carton
 * sizes and a key), a streaming replica of it (the read replica, and the
 * failover's target), a TCP proxy as the address the server and the writer
 * reach the primary at, a redis-server, and the real server in a child
 * process. The clusters and Redis are the fault tests' helpers
 * (test/faults/local-postgres.ts, test/support/local-redis.ts): root and the
 * Postgres binaries are needed, as for those tests.
 */
export interface FaultServices {
  readonly primary: LocalPostgres;
  readonly replica: LocalPostgres;
  readonly proxy: TcpProxy;
  readonly redis: LocalRedis;
  readonly server: SoakServer;
  /** The address of the primary, through the proxy. */
  readonly databaseUrl: string;
  readonly key: string;
  readonly brandId: string;
  /** Waits until the replica has replayed all the primary wrote. */
  replicaCaughtUp(): Promise<void>;
  /** `pg_terminate_backend` on every session of the server's, on both clusters; how many there were. */
  terminateServerSessions(): Promise<number>;
  close(): Promise<void>;
}

async function terminateOn(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const result = await client.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'brand-catalog-read-api'`);
    return result.rowCount ?? 0;
  } catch {
    return 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function startFaultServices(): Promise<FaultServices> {
  const { cluster: primary, key, brandId } = await catalogCluster();
  const replica = await LocalPostgres.replicaOf(primary);
  await replica.start();
  const proxy = await startTcpProxy({ targetPort: primary.port });
  const redis = new LocalRedis(await freePort());
  await redis.start();
  const databaseUrl = `postgres://postgres@127.0.0.1:${proxy.port}/postgres`;
  const server = await startSoakServer({
    env: {
      DATABASE_URL: databaseUrl, DATABASE_REPLICA_URLS: replica.url, REDIS_URL: redis.url, CURSOR_SECRET: PROCESS_CURSOR_SECRET,
      DATABASE_POOL_MAX: '6', RATE_LIMIT_POINTS: '10000000', RATE_LIMIT_WINDOW_SECONDS: '10',
    },
  });
  return {
    primary, replica, proxy, redis, server, databaseUrl, key, brandId,
    async replicaCaughtUp() {
      const replication = watchReplication({ primaryUrl: primary.url, replicaUrl: replica.url });
      try {
        await replication.caughtUp(20_000);
      } finally {
        await replication.close();
      }
    },
    async terminateServerSessions() {
      return (await terminateOn(primary.url)) + (await terminateOn(replica.url));
    },
    async close() {
      server.killNow();
      await proxy.close();
      await redis.dispose();
      await replica.destroy();
      await primary.destroy();
    },
  };
}
