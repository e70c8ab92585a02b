/**
 * Helpers for the server tests that test/support does not have: raw HTTP
 * requests (paths sent byte for byte), error-body checks, free ports, a
 * throw-away redis-server, and polling.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type Server } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { createLogger, type Logger } from '../../src/server/logger.ts';
import type { RateLimiter } from '../../src/server/limits/rate-limiter.ts';
import { createCursorCodec } from '../../src/engine/request/cursor-codec.ts';
import { API_BASE_PATH } from '../../src/engine/openapi/build-openapi.ts';
import { createApp } from '../../src/server/app.ts';
import { testDatabase } from '../support/test-database.ts';
import { TEST_CURSOR_SECRET } from '../support/test-server.ts';

/** The contract's error body: exactly `{ error, errorCode, details? }`. */
export function expectErrorBody(body: unknown, errorCode: string, { details }: { details?: 'required' | 'forbidden' } = {}): void {
  expect(body, 'error body').to.be.an('object');
  const record = body as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  if (details === 'required') expect(keys).to.deep.equal(['details', 'error', 'errorCode']);
  else if (details === 'forbidden') expect(keys).to.deep.equal(['error', 'errorCode']);
  else expect(keys.filter((k) => k !== 'details')).to.deep.equal(['error', 'errorCode']);
  expect(record.error).to.be.a('string').and.not.equal('');
  expect(record.errorCode).to.equal(errorCode);
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  readonly body: any;
}

/** A request whose path goes on the wire exactly as given (fetch would normalise it). */
export function rawRequest(origin: string, path: string, { method = 'GET', headers = {} }: { method?: string; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          body = null;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A logger whose lines are collected, for code under test that wants one. */
export function collectingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ level: 'info', destination }), lines };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `probe` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function waitFor<T>(probe: () => Promise<T | undefined | false>, { timeoutMs = 10_000, intervalMs = 100, what = 'condition' } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}

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

/** Whether a program answers on PATH. */
export function onPath(program: string): boolean {
  const result = spawnSync(program, ['--version'], { stdio: 'ignore' });
  return !result.error && result.status === 0;
}

/**
 * The real app on a free port with a rate limiter the test made (startTestServer
 * gives every server a prefix of its own, so two of them never share counts).
 */
export async function startServerWithLimiter(limiter: RateLimiter): Promise<{ origin: string; request(path: string, key: string): Promise<{ status: number; headers: Headers }>; close(): Promise<void> }> {
  const { db, registry } = await testDatabase();
  const app = createApp({ registry, db, limiter, cursors: createCursorCodec(TEST_CURSOR_SECRET), logger: collectingLogger().logger });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    async request(path, key) {
      const response = await fetch(`${origin}${API_BASE_PATH}${path}`, { headers: { Authorization: `Bearer ${key}` } });
      await response.arrayBuffer();
      return { status: response.status, headers: response.headers };
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
