import { createServer, type Server, type Socket } from 'node:net';
import { expect } from 'chai';
import { databaseAnswers } from '../../../src/db/connection/database-answers.ts';
import { openPostgres } from '../../../src/db/connection/open-database.ts';
import { freePort } from '../../support/free-port.ts';
import { testDatabase } from '../../support/test-database.ts';

/** knex's warnings about connections that fail on purpose. */
const quiet = { warn: () => undefined, error: () => undefined };

describe('databaseAnswers', () => {
  it('is true for a database that answers', async () => {
    expect(await databaseAnswers((await testDatabase()).db, 2000)).to.equal(true);
  });

  it('is false at once for a database that refuses connections', async () => {
    const refused = openPostgres({ url: `postgres://postgres@127.0.0.1:${await freePort()}/none`, poolMax: 1, log: quiet });
    try {
      const started = performance.now();
      expect(await databaseAnswers(refused.db, 2000)).to.equal(false);
      expect(performance.now() - started).to.be.below(1500);
    } finally {
      await refused.close();
    }
  });

  describe('a database that accepts connections and never answers', () => {
    let silent: Server;
    const sockets = new Set<Socket>();
    before(async () => {
      silent = createServer((socket) => {
        sockets.add(socket);
        socket.on('error', () => undefined);
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    });
    after(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    it('is false once the time given has passed, not when the driver gives up', async () => {
      const { port } = silent.address() as { port: number };
      const hanging = openPostgres({ url: `postgres://postgres@127.0.0.1:${port}/none`, poolMax: 1, log: quiet });
      const started = performance.now();
      expect(await databaseAnswers(hanging.db, 300)).to.equal(false);
      expect(performance.now() - started).to.be.within(250, 2000);
      for (const socket of sockets) socket.destroy();
      await hanging.close();
    });
  });
});
