/**
 * `npm run keys -- create --brand <slug> [--brand <slug>...] | --global [--family <path>...] [--area <area>...]
 *    [--rate-limit <requests per window>] [--expires-at <ISO 8601>] [--name <text>] [--json]`
 * `npm run keys -- list [--json]`
 * `npm run keys -- rotate <id> [--overlap <duration>] [--json]`
 * `npm run keys -- revoke <id> [--json]`
 *
 * Works on DATABASE_URL, or on the embedded database when it is not set. The
 * command itself is tools/keys/keys-command.ts; bad usage exits 2 before any
 * database is opened.
 */
import { loadRegistry } from '../src/engine/definition/registry.ts';
import { knownFamilies } from '../src/server/auth/key-scope.ts';
import { runTool } from './shared/open-tool-connection.ts';
import { KEYS_USAGE, parseKeysCommand, runKeysCommand, UsageError, type KeysCommand } from './keys/keys-command.ts';

let command: KeysCommand;
try {
  command = parseKeysCommand(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`${error.message}\n${KEYS_USAGE}\n`);
  process.exit(2);
}

const known = async () => knownFamilies(await loadRegistry());

await runTool(({ database }) => runKeysCommand({
  command, db: database.db, known, out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text),
}));
