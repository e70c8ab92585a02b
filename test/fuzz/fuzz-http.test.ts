import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { send } from './fuzz-http.ts';

/**
 * The fuzz tests' promise "never a hang" rests on `send` failing a request
 * that gets no answer, instead of waiting for mocha's timeout: checked against
 * a server that accepts and stays silent, and one that hangs up.
 */
describe('fuzz: send', () => {
  let server: Server;
  let origin: string;
  const sockets = new Set<Socket>();
  let behaviour: 'silent' | 'hang up' = 'silent';

  before(async () => {
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      if (behaviour === 'hang up') socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('fails a request that gets no answer in time', async () => {
    behaviour = 'silent';
    const started = Date.now();
    const error = await send({ origin, path: '/silent', timeoutMs: 200 }).then(() => null, (e: Error) => e);
    expect(error?.message).to.match(/^GET \/silent: no answer within 200 ms$/);
    expect(Date.now() - started).to.be.below(2000);
  });

  it('fails a request whose connection closes without an answer', async () => {
    behaviour = 'hang up';
    const error = await send({ origin, path: '/hang-up', timeoutMs: 2000 }).then(() => null, (e: Error) => e);
    expect(error?.message).to.match(/^GET \/hang-up: /);
    expect(error?.message).to.not.match(/no answer within/);
  });
});
