import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCursorCodec } from '../../src/engine/cursor.ts';
import { API_BASE_PATH } from '../../src/engine/openapi.ts';
import type { Registry } from '../../src/engine/registry.ts';
import { createApp } from '../../src/server/app.ts';
import { createKeyCache } from '../../src/server/key-cache.ts';
import { createLogger } from '../../src/server/logger.ts';
import { createRateLimiter } from '../../src/server/rate-limiter.ts';
import { testDatabase } from '../support/test-database.ts';
import { TEST_CURSOR_SECRET, type TestResponse, type TestServer } from '../support/test-server.ts';

/**
 * The app as `main.ts` wires it in production: with the in-process key cache,
 * which answers a known key and brand without asking the database. The test
 * server has no cache, so the key matrix is asked again here: a grant cached
 * for one brand must never answer for another.
 */
export async function startKeyCacheServer(registry: Registry): Promise<Pick<TestServer, 'request' | 'close'>> {
  const { db } = await testDatabase();
  const logger = createLogger({ level: 'silent' });
  const limiter = createRateLimiter({
    points: 100_000,
    windowSeconds: 60,
    redisUrl: process.env.REDIS_URL ?? null,
    keyPrefix: `bcat:test:${randomBytes(6).toString('hex')}`,
    logger,
  });
  const keyCache = createKeyCache({ ttlMs: 60_000 });
  const app = createApp({ registry, db, limiter, cursors: createCursorCodec(TEST_CURSOR_SECRET), logger, keyCache });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    async request(path, { key } = {}): Promise<TestResponse> {
      const response = await fetch(`${origin}${API_BASE_PATH}${path}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
      const text = await response.text();
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = null;
      }
      return { status: response.status, headers: response.headers, body, text };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await limiter.close();
    },
  };
}
