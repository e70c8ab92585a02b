import { parseArgs } from 'node:util';
import { didYouMean } from '../../src/engine/definition/did-you-mean.ts';
import { DEFAULT_ADMIN_URL, DEFAULT_REDIS_URL, defaultOutPath, scaleOfArgs, UsageError, wholeNumber } from '../measure/options.ts';
import { PLATFORMATIC_CASE_NAMES, type PlatformaticCaseName } from './platformatic-cases.ts';
import { DEFAULT_TOOLS_DIR } from './platformatic-tools.ts';
import { DEFAULT_SCALE, type Scale } from '../data/scale.ts';

/** What one `npm run bench:platformatic` does. */
export interface PlatformaticOptions {
  readonly scale: Scale;
  /** Seconds of each half of a side's load on a case: each side gets twice this per case. */
  readonly halfSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  readonly cases: readonly PlatformaticCaseName[];
  readonly adminUrl: string;
  readonly redisUrl: string | null;
  /** Where Platformatic DB (and, on a Node too old for it, Node 24) is installed. */
  readonly toolsDir: string;
  /** Null: `bench/results/<scale>-<date>-platformatic.md`. */
  readonly out: string | null;
}

/** Each half's seconds by default: 16 s per case and side. */
const DEFAULT_HALF_SECONDS = 8;

export const PLATFORMATIC_USAGE = `usage: npm run bench:platformatic -- [--products N] [--brands N] [--big-brand N] [--duration S] [--warmup S]
                                     [--connections N] [--cases a,b] [--out file.md]

  Compares the server, the prepared floor and Platformatic DB 3 on the database that
  \`npm run bench -- --keep-data\` loaded at the same scale (it refuses when none is loaded).

  --products N, --brands N, --big-brand N  the scale, as for npm run bench (default ${DEFAULT_SCALE.products}, ${DEFAULT_SCALE.brands}, a fifth)
  --duration S     seconds of each of the two halves of a side's load on a case (default ${DEFAULT_HALF_SECONDS})
  --warmup S       seconds of load before a side's first half, not measured (default: a fifth of both halves, 1 to 3)
  --connections N  concurrent connections of the load generator (default 32)
  --cases a,b      only these cases (default: all): ${PLATFORMATIC_CASE_NAMES.join(', ')}
  --out file.md    write the table there, and its data beside it as .json

  BENCH_DATABASE_URL  admin connection of the bench's Postgres (default ${DEFAULT_ADMIN_URL})
  REDIS_URL           Redis for the server's rate limits (default ${DEFAULT_REDIS_URL}; empty: in-process)
  BENCH_TOOLS_DIR     where Platformatic DB is installed, once (default ${DEFAULT_TOOLS_DIR})`;

function casesOf(text: string | undefined): PlatformaticCaseName[] {
  if (text === undefined) return [...PLATFORMATIC_CASE_NAMES];
  const names = text.split(',').map((name) => name.trim()).filter((name) => name !== '');
  for (const name of names) {
    if (!(PLATFORMATIC_CASE_NAMES as readonly string[]).includes(name)) {
      throw new UsageError(`no case '${name}'${didYouMean(name, PLATFORMATIC_CASE_NAMES)}; the cases are ${PLATFORMATIC_CASE_NAMES.join(', ')}`);
    }
  }
  const picked = PLATFORMATIC_CASE_NAMES.filter((name) => names.includes(name));
  if (picked.length === 0) throw new UsageError('--cases names no case');
  return picked;
}

/** The options of `npm run bench:platformatic -- <args>`, with the environment's settings. */
export function parsePlatformaticArgs({ args, env }: { args: readonly string[]; env: NodeJS.ProcessEnv }): PlatformaticOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: Object.fromEntries(['products', 'brands', 'big-brand', 'duration', 'warmup', 'connections', 'cases', 'out'].map((name) => [name, { type: 'string' }])),
    }) as { values: Record<string, string | undefined> });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const scale = scaleOfArgs(values);
  const halfSeconds = wholeNumber('duration', values.duration, DEFAULT_HALF_SECONDS);
  return {
    scale,
    halfSeconds,
    warmupSeconds: values.warmup === '0' ? 0 : wholeNumber('warmup', values.warmup, Math.min(3, Math.max(1, Math.round((2 * halfSeconds) / 5)))),
    connections: wholeNumber('connections', values.connections, 32),
    cases: casesOf(values.cases),
    adminUrl: env.BENCH_DATABASE_URL || DEFAULT_ADMIN_URL,
    redisUrl: env.REDIS_URL === undefined ? DEFAULT_REDIS_URL : env.REDIS_URL || null,
    toolsDir: env.BENCH_TOOLS_DIR || DEFAULT_TOOLS_DIR,
    out: values.out ?? null,
  };
}

/** `bench/results/<scale>-<UTC date and minute>-platformatic.md`, beside the bench's own results. */
export function platformaticOutPath({ scale, date }: { scale: Scale; date: Date }): string {
  return defaultOutPath({ scale, date }).replace(/\.md$/, '-platformatic.md');
}
