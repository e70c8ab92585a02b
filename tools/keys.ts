/**
 * `npm run keys -- create --brand <slug> [--brand <slug>...] | --global [--expires-at <ISO 8601>] [--name <text>] [--json]`
 * `npm run keys -- list [--json]`
 * `npm run keys -- revoke <id>`
 *
 * Works on DATABASE_URL, or on the embedded database when it is not set.
 */
import { parseArgs } from 'node:util';
import { createKey, KeyError, listKeys, revokeKey } from '../src/server/auth/key-admin.ts';
import { UUID_PATTERN } from '../src/engine/compile/field-types.ts';
import { runTool } from './shared/open-tool-connection.ts';
import { parseExpiry } from './keys/parse-expiry.ts';

const USAGE = `usage:
  npm run keys -- create --brand <slug> [--brand <slug>...] [--expires-at <ISO 8601>] [--name <text>] [--json]
  npm run keys -- create --global [--expires-at <ISO 8601>] [--name <text>] [--json]
  npm run keys -- list [--json]
  npm run keys -- revoke <id>`;

const UUID = new RegExp(UUID_PATTERN);

function usage(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      brand: { type: 'string', multiple: true },
      global: { type: 'boolean' },
      'expires-at': { type: 'string' },
      name: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
} catch (error) {
  usage((error as Error).message);
}
const { values, positionals } = parsed;
const [command, ...rest] = positionals;

if (command === 'create') {
  if (rest.length > 0) usage(`unexpected: ${rest.join(' ')}`);
  const brands = values.brand ?? [];
  if (Boolean(values.global) === brands.length > 0) usage('give --global or at least one --brand, not both');
  let expiresAt: Date | null = null;
  try {
    if (values['expires-at'] !== undefined) expiresAt = parseExpiry(values['expires-at']);
  } catch (error) {
    usage((error as Error).message);
  }
  await runTool(async ({ database }) => {
    try {
      const created = await createKey(database.db, { brands, global: Boolean(values.global), expiresAt, name: values.name ?? null });
      if (values.json) process.stdout.write(`${JSON.stringify(created)}\n`);
      else process.stdout.write(`Created key ${created.id}. It is shown only now; keep it secret:\n${created.key}\n`);
      return 0;
    } catch (error) {
      if (error instanceof KeyError) {
        process.stderr.write(`${error.message}\n`);
        return 1;
      }
      throw error;
    }
  });
} else if (command === 'list') {
  await runTool(async ({ database }) => {
    const keys = await listKeys(database.db);
    if (values.json) {
      process.stdout.write(`${JSON.stringify(keys)}\n`);
      return 0;
    }
    if (keys.length === 0) process.stdout.write('No keys.\n');
    for (const key of keys) {
      const scope = key.global ? 'global' : `brands: ${key.brands.join(', ')}`;
      const state = key.revokedAt ? `revoked ${key.revokedAt}` : key.expiresAt ? `expires ${key.expiresAt}` : 'no expiry';
      process.stdout.write(`${key.id}  …${key.hint}  ${scope}  ${state}  created ${key.createdAt}${key.name ? `  ${key.name}` : ''}\n`);
    }
    return 0;
  });
} else if (command === 'revoke') {
  const [id, ...extra] = rest;
  if (!id || extra.length > 0 || !UUID.test(id)) usage('revoke takes one key id (a UUID from `keys list`)');
  await runTool(async ({ database }) => {
    if (await revokeKey(database.db, id)) {
      process.stdout.write(`Revoked ${id}.\n`);
      return 0;
    }
    process.stderr.write(`No live key with id ${id}.\n`);
    return 1;
  });
} else {
  usage(command ? `unknown command: ${command}` : 'name a command');
}
