/**
 * `npm run client:generate [-- --check]`: writes client/src/families.generated.ts
 * (the client's record, filter and include types and its FAMILIES table) from
 * the registry. With `--check` it writes nothing and exits 1 when the committed
 * file is stale, for CI.
 */
import { parseArgs } from 'node:util';
import { loadRegistry } from '../src/engine/definition/registry.ts';
import { CLIENT_GENERATE_COMMAND, clientFamiliesFile } from './generate/client-families-source.ts';
import { reportGeneratedFiles, syncGeneratedFiles } from './generate/generated-files.ts';

let check: boolean;
try {
  ({ values: { check = false } } = parseArgs({ options: { check: { type: 'boolean' } } }));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\nusage: ${CLIENT_GENERATE_COMMAND} [-- --check]\n`);
  process.exit(2);
}

const changed = await syncGeneratedFiles([clientFamiliesFile(await loadRegistry())], { check });
reportGeneratedFiles(changed, { check, what: 'client/src/families.generated.ts', command: CLIENT_GENERATE_COMMAND });
