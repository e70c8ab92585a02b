import type { BenchCase } from './cases.ts';
import { bodyDifferences } from './compare-bodies.ts';

/** Where the two sides answer, and the key the server is asked with. */
export interface AnsweringSides {
  readonly server: { readonly origin: string };
  readonly floor: { readonly origin: string };
  readonly key: string;
  /** The key a restricted case asks with. */
  readonly restrictedKey?: string;
}

async function fetchBody({ origin, path, key }: { origin: string; path: string; key: string | null }): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${origin}${path}`, { headers: key ? { Authorization: `Bearer ${key}` } : {} });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: compared as text.
  }
  return { status: response.status, body };
}

/** How the server's answer to the case's first request differs from the floor's; empty when they agree. */
export async function compareAnswers({ services, benchCase }: { services: AnsweringSides; benchCase: Pick<BenchCase, 'serverPaths' | 'floorPaths' | 'restricted'> }): Promise<string[]> {
  const key = benchCase.restricted ? services.restrictedKey : services.key;
  if (key === undefined) throw new Error('a restricted case needs the restricted key');
  const [server, floor] = await Promise.all([
    fetchBody({ origin: services.server.origin, path: benchCase.serverPaths[0]!, key }),
    fetchBody({ origin: services.floor.origin, path: benchCase.floorPaths[0]!, key: null }),
  ]);
  if (server.status !== 200 || floor.status !== 200) {
    return [`status ${server.status} from the server, ${floor.status} from the floor: ${JSON.stringify(server.status !== 200 ? server.body : floor.body).slice(0, 300)}`];
  }
  return bodyDifferences(server.body, floor.body);
}
