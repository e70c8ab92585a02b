import { expect } from 'chai';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { describeDatabaseFree } from './database-free.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';
import { waitFor } from './wait-for.ts';

/** An echo server that prefixes each answer with its name, so a test can tell which one answered. */
async function echo(name: string): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => socket.on('data', (chunk) => socket.write(`${name}:${chunk}`)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

/** A client on the proxy that collects what it is sent, and whether it was closed. */
async function client(port: number): Promise<{ socket: Socket; received: () => string; closed: () => boolean }> {
  const socket = connect({ host: '127.0.0.1', port });
  let text = '';
  let closed = false;
  socket.on('data', (chunk) => {
    text += chunk.toString();
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    closed = true;
  });
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  return { socket, received: () => text, closed: () => closed };
}

describeDatabaseFree?.('test/support/tcp-proxy.ts', () => {
  let a: Awaited<ReturnType<typeof echo>>;
  let b: Awaited<ReturnType<typeof echo>>;
  let proxy: TcpProxy;

  beforeEach(async () => {
    [a, b] = await Promise.all([echo('a'), echo('b')]);
    proxy = await startTcpProxy({ targetPort: a.port });
  });
  afterEach(async () => {
    await proxy.close();
    a.server.close();
    b.server.close();
  });

  it('forwards both ways, sends new connections to a new target, and drops the ones it carries', async () => {
    const first = await client(proxy.port);
    first.socket.write('1');
    await waitFor(async () => first.received() === 'a:1', { timeoutMs: 2000, intervalMs: 5, what: 'the answer of a' });
    proxy.retarget(b.port);
    first.socket.write('2');
    await waitFor(async () => first.received() === 'a:1a:2', { timeoutMs: 2000, intervalMs: 5, what: 'an old connection to stay on a' });
    const second = await client(proxy.port);
    second.socket.write('3');
    await waitFor(async () => second.received() === 'b:3', { timeoutMs: 2000, intervalMs: 5, what: 'the answer of b' });
    expect(proxy.dropAll()).to.equal(2);
    await waitFor(async () => first.closed() && second.closed(), { timeoutMs: 2000, intervalMs: 5, what: 'both connections closed' });
    expect(proxy.connections()).to.equal(0);
  });

  it('black-holes: connections are accepted and held, and nothing is forwarded either way, until lifted', async () => {
    const old = await client(proxy.port);
    old.socket.write('1');
    await waitFor(async () => old.received() === 'a:1', { timeoutMs: 2000, intervalMs: 5, what: 'the answer of a' });
    proxy.blackHole(true);
    const held = await client(proxy.port);
    held.socket.write('x');
    old.socket.write('2');
    // Another connection, made after, answers through a fresh proxy: by then the black hole had its chance to forward.
    const witness = await startTcpProxy({ targetPort: a.port });
    try {
      const through = await client(witness.port);
      through.socket.write('w');
      await waitFor(async () => through.received() === 'a:w', { timeoutMs: 2000, intervalMs: 5, what: 'the witness' });
      through.socket.destroy();
    } finally {
      await witness.close();
    }
    expect([old.received(), held.received(), held.closed()]).to.deep.equal(['a:1', '', false]);
    proxy.blackHole(false);
    old.socket.write('3');
    await waitFor(async () => old.received() === 'a:1a:3', { timeoutMs: 2000, intervalMs: 5, what: 'forwarding again once lifted' });
    old.socket.destroy();
    held.socket.destroy();
  });
});
