import { expect } from 'chai';
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { createAuthFailureGuard } from '../../../src/server/limits/auth-failure-guard.ts';
import { collectingLogger } from '../../support/collecting-logger.ts';
import { sleep, waitFor } from '../../support/wait-for.ts';

describe('createAuthFailureGuard', () => {
  const guardOver = (failures: RateLimiterAbstract, firstConnection: () => Promise<void> | null = () => null) =>
    createAuthFailureGuard({ failures, firstConnection, logger: collectingLogger().logger });

  it('lets a client in until the failure that spends its budget, then blocks it for the rest of the window', async () => {
    const guard = guardOver(new RateLimiterMemory({ points: 3, duration: 60 }));
    await guard.recordFailure('198.51.100.1');
    await guard.recordFailure('198.51.100.1');
    expect(guard.blockedFor('198.51.100.1')).to.equal(0);
    await guard.recordFailure('198.51.100.1');
    expect(guard.blockedFor('198.51.100.1')).to.be.within(59, 60);
    expect(guard.blockedFor('198.51.100.2'), 'other clients are not blocked').to.equal(0);
  });

  it('lets a blocked client in again once its window has ended', async () => {
    const guard = guardOver(new RateLimiterMemory({ points: 1, duration: 1 }));
    await guard.recordFailure('198.51.100.1');
    expect(guard.blockedFor('198.51.100.1')).to.equal(1);
    // The window is 1 s: let in within 2 s (the check below says how long it is still blocked otherwise).
    await waitFor(async () => guard.blockedFor('198.51.100.1') === 0, { timeoutMs: 2_000, intervalMs: 10 }).catch(() => undefined);
    expect(guard.blockedFor('198.51.100.1')).to.equal(0);
  });

  it('waits for the first connection attempt before it counts', async () => {
    const store = new RateLimiterMemory({ points: 5, duration: 60 });
    let connected!: () => void;
    const connecting = new Promise<void>((resolve) => (connected = resolve));
    let first: Promise<void> | null = connecting;
    const guard = guardOver(store, () => first);
    const recorded = guard.recordFailure('198.51.100.1');
    await sleep(20);
    expect(await store.get('198.51.100.1'), 'nothing counted while connecting').to.equal(null);
    first = null;
    connected();
    await recorded;
    expect((await store.get('198.51.100.1'))?.consumedPoints).to.equal(1);
  });

  it('logs a store that fails to count, and leaves the client unblocked', async () => {
    const { logger, lines } = collectingLogger();
    // A Redis store without an insurance limiter, on a closed port: every count fails.
    const redis = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false });
    const broken = new RateLimiterRedis({ storeClient: redis, points: 1, duration: 60, rejectIfRedisNotReady: true });
    const guard = createAuthFailureGuard({ failures: broken, firstConnection: () => null, logger });
    await guard.recordFailure('198.51.100.1');
    await guard.recordFailure('198.51.100.1');
    expect(guard.blockedFor('198.51.100.1')).to.equal(0);
    expect(lines.map((line) => line.msg)).to.deep.equal(['counting a failed authentication failed', 'counting a failed authentication failed']);
    expect(lines.every((line) => typeof line.err === 'string')).to.equal(true);
  });
});
