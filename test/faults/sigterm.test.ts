/**
 * SIGTERM to the server process (`src/server/main.ts`) while a request is in
 * flight (its list query waits on a table lock held by another session): idle
 * keep-alive connections are closed, new connections are refused, the
 * in-flight request still completes with 200, and the process exits with 0
 * once it has, well within its 10 s grace period.
 */
import { Agent } from 'node:http';
import type { Socket } from 'node:net';
import { expect } from 'chai';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import { sleep, waitFor } from '../support/wait-for.ts';
import {
  BRAND,
  CARTON_SIZES,
  catalogCluster,
  lockTable,
  openObserver,
  PROCESS_CURSOR_SECRET,
  timedGet,
  withTimeout,
  type Observer,
  type TableLock,
  type TimedResponse,
} from './fault-support.ts';
import { spawnServer, type ServerProcess } from '../support/server-process.ts';
import { LocalPostgres } from './local-postgres.ts';
import { describeDatabaseFree } from '../support/database-free.ts';

/** graceful-stop.ts's SHUTDOWN_GRACE_MS, plus a margin: the process must be gone by then, whatever runs. */
const EXIT_BOUND_MS = 10_000 + 2_000;

/** One request on a keep-alive agent, with the socket it went on. */
function keptAliveGet(url: string, { key, agent }: { key?: string; agent: Agent }): { socket: Promise<Socket>; response: Promise<TimedResponse> } {
  let onSocket: (socket: Socket) => void = () => undefined;
  const socket = new Promise<Socket>((resolve) => {
    onSocket = resolve;
  });
  const response = timedGet(url, { ...(key ? { key } : {}), agent, onSocket, timeoutMs: 30_000 });
  return { socket, response };
}

describeDatabaseFree?.('faults: SIGTERM while a request is in flight', function () {
  this.timeout(60_000);
  let cluster: LocalPostgres;
  let observer: Observer;
  let key: string;
  let server: ServerProcess | null = null;
  let lock: TableLock | null = null;
  const agents: Agent[] = [];

  before(async () => {
    ({ cluster, key } = await catalogCluster());
    observer = openObserver(cluster.url);
  });
  afterEach(async () => {
    await lock?.release();
    lock = null;
    await server?.dispose();
    server = null;
    for (const agent of agents.splice(0)) agent.destroy();
  });
  after(async () => {
    await observer?.close();
    await cluster?.destroy();
  });

  it('closes idle connections, refuses new ones, lets the in-flight request finish with 200, and exits with 0', async () => {
    server = await spawnServer({ env: { DATABASE_URL: cluster.url, CURSOR_SECRET: PROCESS_CURSOR_SECRET, DATABASE_POOL_MAX: '4' } }).started;
    const listUrl = `${server.origin}${API_BASE_PATH}/brands/${BRAND}/carton-sizes`;
    expect((await timedGet(listUrl, { key })).status).to.equal(200);

    // An idle keep-alive connection: it must not hold the exit back.
    const idleAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    const busyAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(idleAgent, busyAgent);
    const idle = keptAliveGet(`${server.origin}/healthz`, { agent: idleAgent });
    expect((await idle.response).status).to.equal(200);
    const idleSocket = await idle.socket;
    let idleClosedAt: number | null = null;
    idleSocket.once('close', () => {
      idleClosedAt = performance.now();
    });
    expect(idleSocket.destroyed, 'the keep-alive connection stays open between requests').to.equal(false);

    // The in-flight request: its list query waits on the lock.
    lock = await lockTable(cluster.url, 'carton_sizes');
    const busy = keptAliveGet(`${listUrl}?limit=5`, { key, agent: busyAgent });
    let answeredAt: number | null = null;
    void busy.response.then(() => {
      answeredAt = performance.now();
    }, () => undefined);
    await waitFor(async () => (await observer.apiSessions({ waitingOnLock: true })) >= 1, { timeoutMs: 5_000, what: 'the request to wait on the lock' });

    const signalled = performance.now();
    server.child.kill('SIGTERM');

    // New connections are refused once the listener is closed. Until then a request racing the signal may
    // still be served (told to close), or reset if the kernel had queued it when the listener closed.
    const late: string[] = [];
    await waitFor(async () => {
      try {
        const answer = await timedGet(`${server!.origin}/healthz`, { timeoutMs: 2_000 });
        expect(answer.headers.connection, 'a request accepted while stopping is told to close').to.equal('close');
        late.push(String(answer.status));
        return false;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        late.push(code);
        expect(['ECONNREFUSED', 'ECONNRESET'], 'a new connection after SIGTERM').to.include(code);
        return code === 'ECONNREFUSED';
      }
    }, { timeoutMs: 3_000, intervalMs: 50, what: `new connections to be refused (got ${late.join(', ')})` });
    await waitFor(async () => idleClosedAt !== null, { timeoutMs: 2_000, what: 'the idle keep-alive connection to be closed' });

    // The process waits for the in-flight request.
    await sleep(500);
    expect(answeredAt, 'the in-flight request is still waiting on the lock').to.equal(null);
    expect(server.child.exitCode, 'the process waits for the in-flight request').to.equal(null);

    const released = performance.now();
    await lock.release();
    lock = null;
    const answer = await busy.response;
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body.items).to.have.length(5);
    expect(answer.body.totalItems).to.equal(CARTON_SIZES);

    const exit = await withTimeout(server.exited, EXIT_BOUND_MS, 'the process to exit after SIGTERM');
    expect(exit.code, `exit code; stderr:\n${server.stderr()}`).to.equal(0);
    expect(exit.at - signalled, 'from SIGTERM to exit').to.be.below(EXIT_BOUND_MS);
    const told = `the in-flight response said Connection: ${String(answer.headers.connection)}, Keep-Alive: ${String(answer.headers['keep-alive'])}`;
    expect(exit.at - released, `ms from the last request finishing to exit: nothing else may hold the process (${told})`).to.be.below(2_000);
    expect((await busy.socket).destroyed, 'the in-flight request\'s connection was closed too').to.equal(true);

    const logged = server.stdout().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged.some((line) => line.msg === 'shutting down' && line.signal === 'SIGTERM')).to.equal(true);
    expect(logged.some((line) => /still running after the grace period/.test(String(line.msg)))).to.equal(false);
  });
});
