import { resetToBrand } from '../support/fixtures.ts';
import type { TestServer, TestServerOptions } from '../support/test-server.ts';
import { useServer } from '../support/use-server.ts';
import { createClient, type BrandCatalogClient, type ClientOptions } from '../../client/src/index.ts';

/**
 * Hooks shared by the client's tests: one real server per file, and per test
 * an empty database with brand `acme`, a key for it, and a client on them.
 */
export interface ClientApi {
  server: TestServer;
  brand: { id: string; slug: string };
  key: string;
  client: BrandCatalogClient;
  /** Another client on the same server, brand and key unless told otherwise. */
  clientWith(options?: Partial<ClientOptions>): BrandCatalogClient;
}

export function useClientApi(serverOptions: TestServerOptions = {}): ClientApi {
  const api = { server: useServer(serverOptions) } as ClientApi;
  beforeEach(async () => {
    ({ brand: api.brand, key: api.key } = await resetToBrand('acme'));
    // Each test reads the request log of its own requests only.
    api.server.logs.splice(0);
    api.clientWith = (options = {}) => createClient({ baseUrl: api.server.origin, apiKey: api.key, brand: 'acme', ...options });
    api.client = api.clientWith();
  });
  return api;
}

/** The request-log lines of the server for one path, in order. */
export function requestsTo(server: TestServer, path: string): Record<string, unknown>[] {
  return server.logs.filter((line) => line.msg === 'request' && line.path === `/api/public/v1${path}`);
}
