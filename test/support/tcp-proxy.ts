/**
 * A TCP proxy on a free port of 127.0.0.1, standing for the address a
 * service reaches its database at (a virtual IP, a DNS name, a managed
 * endpoint): a failover points it at another server while the service keeps
 * the same URL. It can drop every connection it carries (as a failover does
 * to the old primary's), and black-hole: accept connections and forward
 * nothing either way, as an address that stops answering does (a partition,
 * a dead host whose packets vanish), which is not the same fault as a
 * refused connection.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { freePort } from './free-port.ts';

export interface TcpProxy {
  /** The port clients connect to; it never changes. */
  readonly port: number;
  /** Where new connections go from now on (existing ones stay where they are unless dropped). */
  retarget(port: number): void;
  /** Closes every connection it carries, both sides; returns how many there were. */
  dropAll(): number;
  /** While on, nothing is forwarded on any connection, old or new, and new ones are accepted and held open. */
  blackHole(on: boolean): void;
  /** Connections it carries now. */
  connections(): number;
  close(): Promise<void>;
}

interface Pair {
  readonly client: Socket;
  upstream: Socket | null;
}

export async function startTcpProxy({ targetPort, host = '127.0.0.1' }: { targetPort: number; host?: string }): Promise<TcpProxy> {
  let target = targetPort;
  let holed = false;
  const pairs = new Set<Pair>();

  const end = (pair: Pair): void => {
    if (!pairs.delete(pair)) return;
    pair.client.destroy();
    pair.upstream?.destroy();
  };

  /** Forwards each way unless black-holed; what arrives meanwhile is lost, as on a dead link. */
  const join = (pair: Pair): void => {
    const upstream = connect({ host, port: target });
    pair.upstream = upstream;
    upstream.on('data', (chunk: Buffer) => {
      if (!holed) pair.client.write(chunk);
    });
    pair.client.on('data', (chunk: Buffer) => {
      if (!holed) upstream.write(chunk);
    });
    for (const socket of [upstream, pair.client]) {
      socket.on('error', () => end(pair));
      socket.on('close', () => end(pair));
    }
  };

  const server: Server = createServer((client) => {
    const pair: Pair = { client, upstream: null };
    pairs.add(pair);
    client.on('error', () => end(pair));
    // A connection made while black-holed is held with no upstream, for good: it never answers.
    if (holed) client.on('close', () => end(pair));
    else join(pair);
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });

  return {
    port,
    retarget(next) {
      target = next;
    },
    dropAll() {
      const count = pairs.size;
      for (const pair of [...pairs]) end(pair);
      return count;
    },
    blackHole(on) {
      holed = on;
    },
    connections: () => pairs.size,
    async close() {
      for (const pair of [...pairs]) end(pair);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
