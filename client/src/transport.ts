import { ApiError, errorFromResponse, NetworkError } from './errors.ts';
import { API_BASE_PATH } from './families.generated.ts';
import { isRetriedStatus, parseRateLimit, parseRetryAfter, retryDelayMs, sleep, type RetryNotice } from './retry.ts';

/** Sends the API's GETs: the key, the base URL, the retries, and the JSON body or an `ApiError`. */
export interface Transport {
  /** GET `<base><path>?<query>`: the parsed JSON body of a 2xx, and the URL asked (without its query). */
  getJson(args: { path: string; query?: URLSearchParams; signal?: AbortSignal }): Promise<{ body: unknown; url: string }>;
}

/**
 * The API base from what a user gives: the server's origin (or a prefix it is
 * mounted under) gets `/api/public/v1` appended; a URL that already ends with
 * it is taken as is.
 */
export function apiBase(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (url.search || url.hash) throw new TypeError(`baseUrl must not carry a query or fragment: ${baseUrl}`);
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith(API_BASE_PATH) ? path : `${path}${API_BASE_PATH}`;
  return url.toString();
}

export function createTransport({ baseUrl, apiKey, maxRetries, fetch, userAgent, onRetry }: {
  baseUrl: string;
  apiKey: string;
  maxRetries: number;
  fetch: typeof globalThis.fetch;
  userAgent: string;
  onRetry?: (notice: RetryNotice) => void;
}): Transport {
  const base = apiBase(baseUrl);
  const headers = { Authorization: `Bearer ${apiKey}`, Accept: 'application/json', 'User-Agent': userAgent };

  return {
    async getJson({ path, query, signal }) {
      const text = query?.toString() ?? '';
      const search = text ? `?${text}` : '';
      const url = `${base}${path}${search}`;
      const plainUrl = `${base}${path}`;
      for (let attempt = 0; ; attempt++) {
        let response: Response;
        try {
          response = await fetch(url, { headers, signal });
        } catch (error) {
          if (signal?.aborted) throw error;
          if (attempt >= maxRetries) throw new NetworkError({ url: plainUrl, attempts: attempt + 1, cause: error });
          const delayMs = retryDelayMs({ attempt, retryAfterSeconds: null });
          onRetry?.({ retry: attempt + 1, delayMs, reason: 'network', url: plainUrl });
          await sleep(delayMs, signal);
          continue;
        }
        if (response.ok) return { body: await readJson(response, plainUrl), url: plainUrl };
        const retryAfterSeconds = parseRetryAfter(response.headers.get('Retry-After'))
          ?? (response.status === 429 ? parseRateLimit(response.headers.get('RateLimit'))?.resetSeconds ?? null : null);
        if (isRetriedStatus(response.status) && attempt < maxRetries) {
          // Read the body away so the connection goes back to the pool.
          await response.arrayBuffer().catch(() => undefined);
          const delayMs = retryDelayMs({ attempt, retryAfterSeconds });
          onRetry?.({ retry: attempt + 1, delayMs, reason: response.status === 429 ? 'rate_limited' : `status ${response.status}`, url: plainUrl });
          await sleep(delayMs, signal);
          continue;
        }
        throw await errorFromResponse({ response, url: plainUrl, retryAfterSeconds });
      }
    },
  };
}

async function readJson(response: Response, url: string): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError({
      status: response.status,
      errorCode: 'unexpected_response',
      message: 'the body of a successful response is not JSON',
      details: text.slice(0, 500),
      requestId: response.headers.get('X-Request-Id'),
      retryAfterSeconds: null,
      url,
    });
  }
}
