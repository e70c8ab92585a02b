import { startTestServer, type TestServer, type TestServerOptions } from './test-server.ts';

/**
 * A test server for the tests of the `describe` it is called in: started
 * (`startTestServer`, on the run's database unless the options bring
 * another) before them, closed after them. What it gives back stands for
 * that server: read it in tests and hooks, not while the file loads.
 *
 * Options may be a function, called as the server starts, for what an
 * earlier `before` hook made (a Redis, a key cache). Hooks run in the order
 * they are declared: a `before` declared after this call sees the server
 * started. `startTimeoutMs` bounds the start when the tests' own timeout is
 * too short for it (the first start of a process may make the run's
 * database).
 *
 * @example
 * describe('X-Request-Id', () => {
 *   const server = useServer();
 *   it('...', async () => { await server.request('/brands/acme/products', { key }); });
 * });
 */
export function useServer(
  options: TestServerOptions | (() => TestServerOptions | Promise<TestServerOptions>) = {},
  { startTimeoutMs }: { startTimeoutMs?: number } = {},
): TestServer {
  let started: TestServer | null = null;
  const current = (): TestServer => {
    if (!started) throw new Error('useServer(): the server runs from its before hook to its after hook; use it in tests and hooks');
    return started;
  };
  before(async function () {
    if (startTimeoutMs !== undefined) this.timeout(startTimeoutMs);
    started = await startTestServer(typeof options === 'function' ? await options() : options);
  });
  after(async () => {
    const running = started;
    started = null;
    await running?.close();
  });
  return {
    get origin() {
      return current().origin;
    },
    get baseUrl() {
      return current().baseUrl;
    },
    get registry() {
      return current().registry;
    },
    get limiter() {
      return current().limiter;
    },
    get logs() {
      return current().logs;
    },
    get live() {
      return current().live;
    },
    request: (path, init) => current().request(path, init),
    // Closed before its time (a test of what a stop does): the after hook has nothing left to close.
    close: async () => {
      const running = current();
      started = null;
      await running.close();
    },
  };
}
