import { parseArgs } from 'node:util';
import type { Knex } from 'knex';
import { createKey, KeyError, listKeys, revokeKey, rotateKey, type KeySummary, type KnownFamilies } from '../../src/server/auth/key-admin.ts';
import { UUID_PATTERN } from '../../src/engine/compile/field-types.ts';
import { AREAS } from '../../src/engine/definition/normalize-resource.ts';
import { parseExpiry } from './parse-expiry.ts';
import { DEFAULT_OVERLAP, parseOverlap } from './parse-overlap.ts';

/**
 * `npm run keys`, apart from its process: its arguments read into a command
 * (a usage error stops it before any database is opened, exit 2), and the
 * command run on a database, writing what the user sees. tools/keys.ts is
 * the process around it; tests run it in process.
 */

export const KEYS_USAGE = `usage:
  npm run keys -- create --brand <slug> [--brand <slug>...] [options] [--json]
  npm run keys -- create --global [options] [--json]
      options: [--family <path>...] [--area <area>...] [--rate-limit <requests per window>]
               [--expires-at <ISO 8601>] [--name <text>]
      --family and --area restrict the key to those families (paths, such as shipments) and
      those areas (${AREAS.join(', ')}); together they add up
  npm run keys -- list [--json]
  npm run keys -- rotate <id> [--overlap <duration: 0, 90m, 24h, 7d; default ${DEFAULT_OVERLAP}>] [--json]
  npm run keys -- revoke <id> [--json]`;

export class UsageError extends Error {
  override name = 'UsageError';
}

export type KeysCommand =
  | { readonly name: 'create'; readonly json: boolean; readonly brands: string[]; readonly global: boolean; readonly expiresAt: Date | null;
    readonly rateLimit: number | null; readonly families: string[]; readonly areas: string[]; readonly label: string | null }
  | { readonly name: 'list'; readonly json: boolean }
  | { readonly name: 'rotate'; readonly json: boolean; readonly id: string; readonly overlapMs: number }
  | { readonly name: 'revoke'; readonly json: boolean; readonly id: string };

const UUID = new RegExp(UUID_PATTERN);

const OPTIONS = {
  brand: { type: 'string', multiple: true }, global: { type: 'boolean' }, family: { type: 'string', multiple: true },
  area: { type: 'string', multiple: true }, 'rate-limit': { type: 'string' }, 'expires-at': { type: 'string' },
  overlap: { type: 'string' }, name: { type: 'string' }, json: { type: 'boolean' },
} as const;

/** The command the arguments ask for; a `UsageError` says what is wrong with them. */
export function parseKeysCommand(argv: readonly string[]): KeysCommand {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, options: OPTIONS });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals: [command, ...rest] } = parsed;
  const json = Boolean(values.json);
  const idOf = (what: string): string => {
    const [id, ...extra] = rest;
    if (!id || extra.length > 0 || !UUID.test(id)) throw new UsageError(`${what} takes one key id (a UUID from \`keys list\`)`);
    return id;
  };
  const read = <T>(parse: () => T): T => {
    try {
      return parse();
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  };
  switch (command) {
    case 'create': {
      if (rest.length > 0) throw new UsageError(`unexpected: ${rest.join(' ')}`);
      const brands = values.brand ?? [];
      if (Boolean(values.global) === brands.length > 0) throw new UsageError('give --global or at least one --brand, not both');
      const limit = values['rate-limit'];
      if (limit !== undefined && !/^[1-9][0-9]{0,8}$/.test(limit)) throw new UsageError(`--rate-limit takes a whole number of requests per window above 0, not '${limit}'`);
      return {
        name: 'create', json, brands, global: Boolean(values.global),
        expiresAt: values['expires-at'] === undefined ? null : read(() => parseExpiry(values['expires-at']!)),
        rateLimit: limit === undefined ? null : Number(limit), families: values.family ?? [], areas: values.area ?? [], label: values.name ?? null,
      };
    }
    case 'list':
      return { name: 'list', json };
    case 'rotate':
      return { name: 'rotate', json, id: idOf('rotate'), overlapMs: read(() => parseOverlap(values.overlap ?? DEFAULT_OVERLAP)) };
    case 'revoke':
      return { name: 'revoke', json, id: idOf('revoke') };
    default:
      throw new UsageError(command ? `unknown command: ${command}` : 'name a command');
  }
}

/** A key's one line in `keys list`. */
function line(key: KeySummary): string {
  const scope = key.global ? 'global' : `brands: ${key.brands.join(', ')}`;
  const restricted = key.families.length + key.areas.length === 0 ? 'every family'
    : [key.areas.length > 0 ? `areas: ${key.areas.join(', ')}` : '', key.families.length > 0 ? `families: ${key.families.join(', ')}` : ''].filter(Boolean).join('; ');
  const state = key.revokedAt ? `revoked ${key.revokedAt}` : key.expiresAt ? `expires ${key.expiresAt}` : 'no expiry';
  const limit = key.rateLimit === null ? 'default limit' : `limit ${key.rateLimit}`;
  const used = key.lastUsedAt ? `last used ${key.lastUsedAt.slice(0, 16)}Z` : 'never used';
  return `${key.id}  …${key.hint}  ${scope}  ${restricted}  ${limit}  ${state}  ${used}  created ${key.createdAt}${key.name ? `  ${key.name}` : ''}\n`;
}

/**
 * Runs a command on a database; its exit code. `known` gives the families
 * and areas a restriction may name (asked only when one is given).
 */
export async function runKeysCommand({ command, db, known, out, err }: {
  command: KeysCommand;
  db: Knex;
  known: () => Promise<KnownFamilies>;
  out: (text: string) => void;
  err: (text: string) => void;
}): Promise<number> {
  const print = (json: unknown, text: string): void => out(command.json ? `${JSON.stringify(json)}\n` : text);
  switch (command.name) {
    case 'create': {
      const { brands, global, expiresAt, label, families, areas, rateLimit } = command;
      try {
        const restricted = families.length + areas.length > 0 ? await known() : undefined;
        const created = await createKey(db, { brands, global, expiresAt, name: label, families, areas, rateLimit, known: restricted });
        print(created, `Created key ${created.id}. It is shown only now; keep it secret:\n${created.key}\n`);
        return 0;
      } catch (error) {
        if (!(error instanceof KeyError)) throw error;
        err(`${error.message}\n`);
        return 1;
      }
    }
    case 'list': {
      const keys = await listKeys(db);
      print(keys, keys.length === 0 ? 'No keys.\n' : keys.map(line).join(''));
      return 0;
    }
    case 'rotate': {
      const rotated = await rotateKey(db, { id: command.id, overlapMs: command.overlapMs });
      if (!rotated) {
        err(`No live key with id ${command.id}.\n`);
        return 1;
      }
      const ends = command.overlapMs === 0 ? `${command.id} is revoked` : `${command.id} keeps working until ${rotated.oldExpiresAt}`;
      print({ id: rotated.id, key: rotated.key }, `Created key ${rotated.id} to replace ${command.id}; ${ends}. The new key is shown only now; keep it secret:\n${rotated.key}\n`);
      return 0;
    }
    case 'revoke': {
      if (!(await revokeKey(db, command.id))) {
        err(`No live key with id ${command.id}.\n`);
        return 1;
      }
      print({ id: command.id, revoked: true }, `Revoked ${command.id}.\n`);
      return 0;
    }
  }
}
