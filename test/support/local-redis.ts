/**
 * Redis for the tests that need one of their own or look inside one: a
 * throw-away redis-server, reads of its keys, and a wait until a rate limiter
 * counts there.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { RateLimiter } from '../../src/server/limits/rate-limiter.ts';
import { waitFor } from './wait-for.ts';

/** A redis-server of the test's own, on a port of its own, with no persistence. */
export class LocalRedis {
  private process: ChildProcess | null = null;
  private dir: string | null = null;
  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.dir ??= await mkdtemp(join(tmpdir(), 'bcat-redis-'));
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.process = child;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        if (/ready to accept connections/i.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}: ${output}`));
      });
    });
    child.stdout!.resume();
    child.stderr!.resume();
  }

  /** Kills this process (and only this one) and waits for it to be gone. */
  async kill(): Promise<void> {
    const child = this.process;
    this.process = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async dispose(): Promise<void> {
    await this.kill();
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
    this.dir = null;
  }
}

/** Keys of a Redis matching a pattern, read with a short-lived client that never waits for a Redis that is down. */
export async function redisKeys(url: string, pattern: string): Promise<string[]> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: 1000, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
    return found;
  } finally {
    client.disconnect();
  }
}

/** The value stored at a Redis key (as a number), or null. */
export async function redisNumber(url: string, key: string): Promise<number | null> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: 1000, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const value = await client.get(key);
    return value === null ? null : Number(value);
  } finally {
    client.disconnect();
  }
}

/**
 * Waits until a limiter counts in Redis (its connection is ready): consumes a
 * probe key until that key shows up in Redis. Until then the insurance limiter
 * would count, and the counts of a test would be split between the two.
 */
export async function waitUntilCountingInRedis(limiter: RateLimiter, url: string, timeoutMs = 10_000): Promise<void> {
  await waitFor(async () => {
    const probe = `probe-${randomUUID()}`;
    await limiter.consume(probe);
    return (await redisKeys(url, `*:${probe}`)).length > 0;
  }, { timeoutMs, intervalMs: 100, what: 'the limiter to count in Redis' });
}

/** Whether a program answers on PATH (`redis-server` for a Redis of the test's own). */
export function onPath(program: string): boolean {
  const result = spawnSync(program, ['--version'], { stdio: 'ignore' });
  return !result.error && result.status === 0;
}
