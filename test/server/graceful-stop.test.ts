import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { gracefulStop } from '../../src/server/graceful-stop.ts';
import { collectingLogger } from '../support/collecting-logger.ts';
import { sleep, waitFor } from '../support/wait-for.ts';

/** A server whose `/slow` requests are answered when the test says, and whose other requests are answered at once. */
async function startServer(): Promise<{ server: Server; port: number; answerSlow: () => void; slowWaiting: () => number }> {
  const waiting: Array<() => void> = [];
  const server = createServer((req, res) => {
    if (req.url === '/slow') waiting.push(() => res.end('slow'));
    else res.end('fast');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, answerSlow: () => waiting.splice(0).forEach((answer) => answer()), slowWaiting: () => waiting.length };
}

/** One GET on a keep-alive connection (the agent's, when given): its status, `Connection` header and body. */
function get(port: number, path: string, agent?: Agent): Promise<{ connection: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { connection: 'keep-alive' } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ connection: res.headers.connection, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('gracefulStop', () => {
  it('lets the request in flight finish with `Connection: close`, then releases and exits with 0', async () => {
    const { server, port, answerSlow, slowWaiting } = await startServer();
    const { logger, lines } = collectingLogger();
    const events: string[] = [];
    const stop = gracefulStop({ server, logger, release: async () => void events.push('release'), exit: (code) => events.push(`exit ${code}`) });
    const inFlight = get(port, '/slow');
    await waitFor(async () => slowWaiting() > 0, { timeoutMs: 5_000, intervalMs: 5, what: 'the request to reach the server' });
    stop('SIGTERM');
    stop('SIGTERM');
    await sleep(50); // a moment in which nothing may happen
    expect(events, 'nothing is released while a request runs').to.deep.equal([]);
    answerSlow();
    expect(await inFlight).to.deep.equal({ connection: 'close', body: 'slow' });
    // Until both came, or 5 s have passed: the check below then says what did.
    await waitFor(async () => events.length >= 2, { timeoutMs: 5_000, intervalMs: 5 }).catch(() => undefined);
    expect(events).to.deep.equal(['release', 'exit 0']);
    expect(lines.map((line) => line.msg), 'a second signal does nothing').to.deep.equal(['shutting down']);
  });

  it('exits with 1 after releasing when a request is still running at the end of the grace period', async () => {
    const { server, port, answerSlow, slowWaiting } = await startServer();
    const { logger, lines } = collectingLogger();
    const events: string[] = [];
    const stop = gracefulStop({ server, logger, graceMs: 100, release: async () => void events.push('release'), exit: (code) => events.push(`exit ${code}`) });
    const inFlight = get(port, '/slow');
    await waitFor(async () => slowWaiting() > 0, { timeoutMs: 5_000, intervalMs: 5, what: 'the request to reach the server' });
    stop('SIGINT');
    await waitFor(async () => events.length >= 2, { timeoutMs: 5_000, intervalMs: 5 }).catch(() => undefined);
    expect(events).to.deep.equal(['release', 'exit 1']);
    expect(lines.map((line) => line.msg)).to.deep.equal(['shutting down', 'requests still running after the grace period: exiting anyway']);
    answerSlow();
    await inFlight;
    await new Promise((resolve) => server.close(resolve));
  });

  it('closes a connection whose second request is in flight at the signal, and one whose answer was sent before it', async () => {
    const { server, port, answerSlow, slowWaiting } = await startServer();
    const events: string[] = [];
    const stop = gracefulStop({ server, logger: collectingLogger().logger, release: async () => void events.push('release'), exit: (code) => events.push(`exit ${code}`) });
    const reused = new Agent({ keepAlive: true, maxSockets: 1 });
    const idle = new Agent({ keepAlive: true, maxSockets: 1 });
    expect((await get(port, '/', reused)).connection, 'the first answer keeps its connection').to.equal('keep-alive');
    expect((await get(port, '/', idle)).connection).to.equal('keep-alive');
    const inFlight = get(port, '/slow', reused);
    await waitFor(async () => slowWaiting() > 0, { timeoutMs: 5_000, intervalMs: 5, what: 'the second request to reach the server' });
    stop('SIGTERM');
    answerSlow();
    expect(await inFlight, 'the connection now answers its second request').to.deep.equal({ connection: 'close', body: 'slow' });
    // Both connections closed (the idle one at the signal), so the server closes and the process exits.
    await waitFor(async () => events.length >= 2, { timeoutMs: 5_000, intervalMs: 5 }).catch(() => undefined);
    expect(events).to.deep.equal(['release', 'exit 0']);
    reused.destroy();
    idle.destroy();
  });

  it('changes nothing before the signal: responses keep their connection open', async () => {
    const { server, port } = await startServer();
    gracefulStop({ server, logger: collectingLogger().logger, release: async () => undefined, exit: () => undefined });
    expect((await get(port, '/')).connection).to.equal('keep-alive');
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
});
