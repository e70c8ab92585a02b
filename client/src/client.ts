import { createChangeBatch, type ChangeBatch } from './change-batch.ts';
import { followChanges, type FollowedBatch, type FollowOptions } from './follow-changes.ts';
import { FAMILIES, type Brand, type CollectionPath, type Families, type FamilyPath } from './families.generated.ts';
import { buildQuery, type FilterValue } from './query.ts';
import type { CountedValue, Counts, CountsOptions } from './counts.ts';
import { createRecordList, type RecordList } from './record-list.ts';
import { DEFAULT_MAX_RETRIES, type RetryNotice } from './retry.ts';
import { createTransport } from './transport.ts';

/** The version sent in `User-Agent`. */
export const CLIENT_VERSION = '1.5.0';

export interface ClientOptions {
  /** The server's origin (`https://catalog.example.com`), or the API base ending in `/api/public/v1`. */
  readonly baseUrl: string;
  /** `Authorization: Bearer <apiKey>` on every request. */
  readonly apiKey: string;
  /** The brand slug every path is under. */
  readonly brand: string;
  /** Retries of one request after a 429, a 502/503/504 or a network failure. Default 3; 0 never retries. */
  readonly maxRetries?: number;
  /** Another `fetch` (a proxy agent, instrumentation). Default: the global one. */
  readonly fetch?: typeof globalThis.fetch;
  readonly userAgent?: string;
  /** Called before each retry's wait. */
  readonly onRetry?: (notice: RetryNotice) => void;
}

/** The names a family may include. */
export type IncludeOf<P extends keyof Families> = Families[P]['include'];

/** A record with the relations asked for in `include` present (optional on the record type). */
export type WithIncludes<R, I extends PropertyKey> = R & Required<Pick<R, Extract<I, keyof R>>>;

/** The record's own fields of a family (its includes excluded), as `fields` may name them. */
export type FieldOf<P extends keyof Families> = Exclude<keyof Families[P]['record'] & string, IncludeOf<P>>;

/**
 * The record type a list or get returns for a family, the includes asked and
 * the sparse field set (all fields when none is given).
 */
export type ResultOf<P extends keyof Families, I extends PropertyKey, F extends PropertyKey = never> = [F] extends [never]
  ? WithIncludes<Families[P]['record'], I>
  : Pick<Families[P]['record'], Extract<F | I, keyof Families[P]['record']>> & Required<Pick<Families[P]['record'], Extract<I, keyof Families[P]['record']>>>;

export interface ListOptions<P extends CollectionPath, I extends IncludeOf<P>, F extends FieldOf<P> = never> {
  /** The family's filters: an array matches any of its values (`{ status: ['draft', 'issued'] }`), an object is a range (`{ createdAt: { gte } }`). */
  readonly filters?: Families[P]['filters'];
  /** The order: a field, or `-` and a field for descending (`'-createdAt'`: newest first). Default `createdAt`. */
  readonly sort?: Families[P]['sort'];
  readonly include?: readonly I[];
  /** Only these fields of each record (`fields=`); every field when left out. */
  readonly fields?: readonly F[];
  /** Page size, 1 to 100 (server default 25). */
  readonly limit?: number;
  /** Start from this cursor (a page's `nextCursor`, or its own `cursor`) instead of the first page. */
  readonly cursor?: string | null;
  readonly signal?: AbortSignal;
}

export interface GetOptions<P extends CollectionPath, I extends IncludeOf<P>, F extends FieldOf<P> = never> {
  readonly include?: readonly I[];
  /** Only these fields of the record (`fields=`); every field when left out. */
  readonly fields?: readonly F[];
  readonly signal?: AbortSignal;
}

/** The families with a changes feed (`GET /brands/{brand}/<path>/changes`): every family but the brand. */
export type ChangesPath = CollectionPath;

export interface ChangesOptions<P extends ChangesPath, F extends FieldOf<P> = never> {
  /** The token the last batch returned; left out (or null), a full sync: every current record as an upsert. */
  readonly syncToken?: string | null;
  /** Go on with a batch from a page's `nextCursor` (it carries the batch's token: `syncToken` is then not sent). */
  readonly cursor?: string | null;
  /** Items per page, 1 to 1000 (server default 100). */
  readonly limit?: number;
  /** Only these fields of each upserted record (`fields=`); every field when left out. */
  readonly fields?: readonly F[];
  readonly signal?: AbortSignal;
  /** Seconds the first page may wait for a change (only with `syncToken`; `follow()` sets it). */
  readonly wait?: number;
}

/** One family's routes: `client.products.list()`, `.get(id)`, `.changes({ syncToken })`. */
export interface FamilyClient<P extends CollectionPath> {
  list<I extends IncludeOf<P> = never, F extends FieldOf<P> = never>(options?: ListOptions<P, I, F>): RecordList<ResultOf<P, I, F>>;
  get<I extends IncludeOf<P> = never, F extends FieldOf<P> = never>(id: string, options?: GetOptions<P, I, F>): Promise<ResultOf<P, I, F>>;
  /** Counts by value (see `BrandCatalogClient.counts`). */
  counts<B extends Families[P]['countable']>(options: CountsOptions<P, B>): Promise<Counts<CountedValue<P, B>>>;
  /** The family's next batch of changes (see `BrandCatalogClient.changes`). */
  changes<F extends FieldOf<P> = never>(options?: ChangesOptions<P, F>): ChangeBatch<ResultOf<P, never, F>>;
  /** The family's changes, batch after batch, live (see `BrandCatalogClient.follow`). */
  follow<F extends FieldOf<P> = never>(options?: FollowOptions & Pick<ChangesOptions<P, F>, 'limit' | 'fields'>): AsyncGenerator<FollowedBatch<ResultOf<P, never, F>>, void, undefined>;
}

/** A `FamilyClient` for every family with a list, by its path (`client['carton-sizes']` for a path with a dash). */
export type FamilyClients = { readonly [P in CollectionPath]: FamilyClient<P> };

export interface BrandCatalogClient extends FamilyClients {
  /** The brand slug the client reads. */
  readonly brand: string;
  /** Every record of a family that matches the filters, across all pages. Nothing is sent until it is iterated. */
  list<P extends CollectionPath, I extends IncludeOf<P> = never, F extends FieldOf<P> = never>(path: P, options?: ListOptions<P, I, F>): RecordList<ResultOf<P, I, F>>;
  /** One record by id; a missing one is an `ApiError` with `errorCode` `not_found`. */
  get<P extends CollectionPath, I extends IncludeOf<P> = never, F extends FieldOf<P> = never>(path: P, id: string, options?: GetOptions<P, I, F>): Promise<ResultOf<P, I, F>>;
  /**
   * How many of a family's records (those matching the filters) have each
   * value of a countable field: the tabs of a portal, a BI job's breakdown.
   */
  counts<P extends CollectionPath, B extends Families[P]['countable']>(path: P, options: CountsOptions<P, B>): Promise<Counts<CountedValue<P, B>>>;
  /** The brand itself (`GET /brands/{brand}`). */
  getBrand(options?: { readonly signal?: AbortSignal }): Promise<Brand>;
  /**
   * One batch of a family's changes feed: what was inserted, updated or
   * deleted since the batch that returned `syncToken` (everything, as
   * upserts, without one). Iterate it for the items, page after page; when it
   * ends it returns the next token, also readable as `batch.syncToken`. A 410
   * is a `SyncTokenExpiredError`: start again without a token. Nothing is sent
   * until it is read.
   */
  changes<P extends ChangesPath, F extends FieldOf<P> = never>(path: P, options?: ChangesOptions<P, F>): ChangeBatch<ResultOf<P, never, F>>;
  /**
   * A family's changes followed live: an async iterator over batches that
   * never ends on its own. Each call after a token waits on the server for
   * the next change; failures are retried with backoff and the same token;
   * it stops when `signal` aborts. Apply each batch, then store its token.
   */
  follow<P extends ChangesPath, F extends FieldOf<P> = never>(path: P, options?: FollowOptions & Pick<ChangesOptions<P, F>, 'limit' | 'fields'>): AsyncGenerator<FollowedBatch<ResultOf<P, never, F>>, void, undefined>;
}

/**
 * A client of the Brand Catalog Read API for one brand.
 *
 * @example
 * ```ts
 * const catalog = createClient({ baseUrl: 'https://catalog.example.com', apiKey, brand: 'northwind' });
 * for await (const product of catalog.list('products', { filters: { status: 'approved' }, include: ['skus'] })) {
 *   console.log(product.code, product.skus.length);
 * }
 * ```
 */
export function createClient({ baseUrl, apiKey, brand, maxRetries = DEFAULT_MAX_RETRIES, fetch = globalThis.fetch, userAgent, onRetry }: ClientOptions): BrandCatalogClient {
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new RangeError(`maxRetries must be a whole number >= 0, not ${maxRetries}`);
  if (!brand) throw new TypeError('brand is required');
  if (!apiKey) throw new TypeError('apiKey is required');
  const transport = createTransport({
    baseUrl,
    apiKey,
    maxRetries,
    fetch,
    userAgent: userAgent ?? `brand-catalog-client/${CLIENT_VERSION}`,
    onRetry,
  });
  const brandPath = `/brands/${encodeURIComponent(brand)}`;

  const client: Omit<BrandCatalogClient, CollectionPath> = {
    brand,
    list(path, { filters, sort, include, fields, limit, cursor = null, signal } = {}) {
      const listPath = `${brandPath}/${encodeURIComponent(path)}`;
      return createRecordList({
        startCursor: cursor,
        fetchPage: async (pageCursor) => {
          const query = buildQuery({ filters: filters as Record<string, FilterValue | undefined>, sort: sort as string | undefined, include, fields, limit, cursor: pageCursor });
          return transport.getJson({ path: listPath, query, signal });
        },
      });
    },
    async get(path, id, { include, fields, signal } = {}) {
      const recordPath = `${brandPath}/${encodeURIComponent(path)}/${encodeURIComponent(id)}`;
      return (await transport.getJson({ path: recordPath, query: buildQuery({ include, fields }), signal })).body as never;
    },
    async counts(path, { by, filters, signal }) {
      const countsPath = `${brandPath}/${encodeURIComponent(path)}/counts`;
      const query = buildQuery({ by: by as string, filters: filters as Record<string, FilterValue | undefined> });
      return (await transport.getJson({ path: countsPath, query, signal })).body as never;
    },
    async getBrand({ signal } = {}) {
      return (await transport.getJson({ path: brandPath, signal })).body as Brand;
    },
    changes(path, { syncToken = null, cursor = null, limit, fields, signal, wait } = {}) {
      const changesPath = `${brandPath}/${encodeURIComponent(path)}/changes`;
      return createChangeBatch({
        startCursor: cursor,
        // The first page sends the token; later ones the cursor, which carries it.
        fetchPage: (pageCursor) => transport.getJson({
          path: changesPath,
          query: buildQuery({ fields, limit, cursor: pageCursor, syncToken: pageCursor === null ? syncToken : null, wait: pageCursor === null && syncToken ? wait : undefined }),
          signal,
        }),
      });
    },
    follow(path, { limit, fields, ...options } = {}) {
      return followChanges({ ...options, batchOf: (syncToken, wait, signal) => client.changes(path, { syncToken, wait, limit, fields, signal }) });
    },
  };
  return withFamilyClients(client);
}

/** Adds `client.<path>` for every family with a list: the same calls with the path bound. */
function withFamilyClients(client: Omit<BrandCatalogClient, CollectionPath>): BrandCatalogClient {
  const families: Record<string, FamilyClient<CollectionPath>> = {};
  for (const path of Object.keys(FAMILIES) as FamilyPath[]) {
    if (FAMILIES[path].tenant) continue;
    const bound = path as CollectionPath;
    families[bound] = Object.freeze({
      list: (options?: ListOptions<CollectionPath, never>) => client.list(bound, options),
      get: (id: string, options?: GetOptions<CollectionPath, never>) => client.get(bound, id, options),
      counts: (options: CountsOptions<CollectionPath, never>) => client.counts(bound, options),
      changes: (options?: ChangesOptions<CollectionPath>) => client.changes(bound, options),
      follow: (options?: FollowOptions) => client.follow(bound, options),
    }) as FamilyClient<CollectionPath>;
  }
  // The client's own members come last, so no family path could ever shadow them.
  return { ...families, ...client } as BrandCatalogClient;
}
