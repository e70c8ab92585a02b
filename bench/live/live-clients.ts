import { Agent, request } from 'node:http';

/** One client's loop: a full sync, then calls with `wait` until stopped; what it was told, by row id, when. */
export interface LiveClients {
  /** Clients inside a waiting call now (sent, not answered). */
  inFlight(): number;
  /** Stops every loop after its current call (answered at the latest when its wait ends). */
  stop(): Promise<void>;
  /** Answers received so far. */
  calls(): number;
  /** Errors met (non-200 answers, connection errors). */
  readonly errors: string[];
}

interface Batch {
  readonly items: { id: string }[];
  readonly nextCursor: string | null;
  readonly syncToken: string | null;
}

/**
 * `perBrand` clients per brand, each following the brand's carton sizes with
 * `wait` seconds, over keep-alive sockets to `origin`. `onItem(id, at)` is
 * told of every item each client receives.
 */
export function startLiveClients({ origin, brands, perBrand, wait, onItem }: {
  origin: string;
  brands: readonly { readonly slug: string; readonly key: string }[];
  perBrand: number;
  wait: number;
  onItem: (id: string, at: number) => void;
}): LiveClients {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const { hostname, port } = new URL(origin);
  const errors: string[] = [];
  let running = true;
  let inFlight = 0;
  let calls = 0;
  const get = (path: string, key: string): Promise<Batch> => getJson<Batch>({ agent, hostname, port, path, key, timeoutMs: (wait + 30) * 1000 });
  const follow = async (brand: { slug: string; key: string }): Promise<void> => {
    const base = `/api/public/v1/brands/${brand.slug}/carton-sizes/changes?limit=1000`;
    let token: string | null = null;
    while (running) {
      try {
        let path: string = token === null ? base : `${base}&syncToken=${encodeURIComponent(token)}&wait=${wait}`;
        for (;;) {
          inFlight += 1;
          const batch = await get(path, brand.key).finally(() => (inFlight -= 1));
          calls += 1;
          const at = performance.now();
          for (const item of batch.items) onItem(item.id, at);
          if (batch.nextCursor === null) {
            token = batch.syncToken;
            break;
          }
          path = `${base}&cursor=${encodeURIComponent(batch.nextCursor)}`;
        }
      } catch (error) {
        if (errors.length < 100) errors.push((error as Error).message);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  };
  // Started a few at a time, as clients arrive over a few seconds: a thousand full syncs at once would only measure the pool's queue.
  const loops = brands.flatMap((brand, b) => Array.from({ length: perBrand }, async (_, c) => {
    await new Promise((resolve) => setTimeout(resolve, (b * perBrand + c) * 5));
    await follow(brand);
  }));
  return {
    inFlight: () => inFlight,
    calls: () => calls,
    errors,
    async stop() {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

/** One GET over `agent`: its JSON body when 200, else an error naming the status. */
export function getJson<T>({ agent, hostname, port, path, key, timeoutMs }: { agent: Agent; hostname: string; port: string; path: string; key: string; timeoutMs: number }): Promise<T> {
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: hostname, port, path, headers: { Authorization: `Bearer ${key}` }, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks).toString()) as T) : reject(new Error(`status ${res.statusCode}`))));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}
