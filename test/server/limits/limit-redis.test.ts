import { expect } from 'chai';
import { connectLimitRedis, type LimitRedis } from '../../../src/server/limits/limit-redis.ts';
import { collectingLogger } from '../../support/collecting-logger.ts';

describe('connectLimitRedis', () => {
  let connection: LimitRedis | null = null;
  afterEach(() => {
    connection?.client.disconnect();
    connection = null;
  });

  it('never queues commands while disconnected, and bounds each command by 500 ms', () => {
    connection = connectLimitRedis({ redisUrl: 'redis://127.0.0.1:1', logger: collectingLogger().logger });
    expect(connection.client.options.enableOfflineQueue).to.equal(false);
    expect(connection.client.options.commandTimeout).to.equal(500);
  });

  it('settles the first connection attempt when it is refused, and has nothing to wait for after', async () => {
    connection = connectLimitRedis({ redisUrl: 'redis://127.0.0.1:1', logger: collectingLogger().logger });
    const first = connection.firstConnection();
    expect(first).to.be.instanceOf(Promise);
    const started = performance.now();
    await first;
    expect(performance.now() - started, 'a refused connection settles before the 500 ms bound').to.be.below(450);
    expect(connection.firstConnection()).to.equal(null);
  });

  if (process.env.REDIS_URL) {
    it('settles the first connection attempt once Redis is ready (REDIS_URL)', async () => {
      connection = connectLimitRedis({ redisUrl: process.env.REDIS_URL!, logger: collectingLogger().logger });
      await connection.firstConnection();
      expect(connection.client.status).to.equal('ready');
      expect(connection.firstConnection()).to.equal(null);
    });
  }
});
