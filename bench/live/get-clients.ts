import { Agent } from 'node:http';
import { getJson } from './live-clients.ts';
import type { LiveClients } from './live-clients.ts';

/**
 * What a waited call is held to: `perBrand` clients per brand, each getting
 * its brand's seed carton size by id every `everySeconds`, over keep-alive
 * sockets, at the rate and over the connections the waiting clients use.
 * They start a few at a time, as the followers do, so their calls come in
 * the same bursts.
 */
export function startGetClients({ origin, brands, perBrand, everySeconds }: {
  origin: string;
  brands: readonly { readonly slug: string; readonly key: string; readonly seedId: string }[];
  perBrand: number;
  everySeconds: number;
}): LiveClients & { started(): number } {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const { hostname, port } = new URL(origin);
  const errors: string[] = [];
  let running = true;
  let inFlight = 0;
  let calls = 0;
  let started = 0;
  const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  const loop = async (brand: { slug: string; key: string; seedId: string }): Promise<void> => {
    started += 1;
    while (running) {
      const at = performance.now();
      inFlight += 1;
      try {
        await getJson({ agent, hostname, port, path: `/api/public/v1/brands/${brand.slug}/carton-sizes/${brand.seedId}`, key: brand.key, timeoutMs: 30_000 });
        calls += 1;
      } catch (error) {
        if (errors.length < 100) errors.push((error as Error).message);
      } finally {
        inFlight -= 1;
      }
      await sleep(Math.max(0, everySeconds * 1000 - (performance.now() - at)));
    }
  };
  const loops = brands.flatMap((brand, b) => Array.from({ length: perBrand }, async (_, c) => {
    await sleep((b * perBrand + c) * 5);
    await loop(brand);
  }));
  return {
    inFlight: () => inFlight,
    calls: () => calls,
    started: () => started,
    errors,
    async stop() {
      running = false;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}
