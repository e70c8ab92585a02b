/**
 * `npm run bench:allocation -- [--products N ...] [--connections N]`: the
 * heap bytes the server and the prepared floor allocate per request, for a
 * get by id, a small brand's first page and the same with `include=skus`, on
 * the database `npm run bench -- --keep-data` loaded at that scale (issue 26,
 * item 2). Allocation hardly depends on how busy the machine is, unlike
 * throughput. Prints a Markdown table.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchDatabaseName, databaseUrl } from './data/bench-database.ts';
import { isLoaded } from './data/loaded-marker.ts';
import { planBrands } from './data/scale.ts';
import { startBenchServer, startFloor } from './measure/bench-services.ts';
import { readFixtures } from './measure/case-fixtures.ts';
import { buildCases, type CaseName } from './measure/cases.ts';
import { allocationPerRequest, probeSetup } from './measure/measure-allocation.ts';
import { parseBenchArgs } from './measure/options.ts';
import type { ServiceProcess } from './measure/service-process.ts';
import { DEFAULTS } from '../src/server/config.ts';

const CASES: readonly CaseName[] = ['get-by-id', 'first-page-small', 'include'];
const REQUESTS = 2000;

const options = parseBenchArgs({ args: process.argv.slice(2), env: process.env });
const name = benchDatabaseName(options.scale);
const url = databaseUrl(options.adminUrl, name);
if (!(await isLoaded({ adminUrl: options.adminUrl, name, scale: options.scale }))) {
  process.stderr.write(`${name} is not loaded: run \`npm run bench -- --keep-data\` at this scale first\n`);
  process.exit(2);
}
const log = (message: string): void => void process.stderr.write(`[allocation] ${message}\n`);
const running: ServiceProcess[] = [];
const probeFile = (side: string): string => join(tmpdir(), `bcat-heap-${process.pid}-${side}.json`);
try {
  const setup = { url, poolMax: DEFAULTS.databasePoolMax, running };
  const { server, key } = await startBenchServer({ ...setup, redisUrl: options.redisUrl, extra: probeSetup(probeFile('server')) });
  const floor = await startFloor({ ...setup, name: 'prepared floor', prepared: true, extra: probeSetup(probeFile('floor')) });
  const fixtures = await readFixtures({ url, brands: planBrands(options.scale), target: { origin: server.origin, key }, walks: [], log });
  const lines = ['| case | server bytes/request | prepared floor bytes/request | server / floor | collections (server, floor) |', '|---|--:|--:|--:|--:|'];
  for (const benchCase of buildCases({ names: CASES, fixtures })) {
    const count = REQUESTS;
    const connections = options.connections;
    const onServer = await allocationPerRequest({
      probed: { service: server, probeFile: probeFile('server') }, paths: benchCase.serverPaths, headers: { Authorization: `Bearer ${key}` }, count, connections,
    });
    const onFloor = await allocationPerRequest({ probed: { service: floor, probeFile: probeFile('floor') }, paths: benchCase.floorPaths, headers: {}, count, connections });
    const ratio = onServer.bytesPerRequest / onFloor.bytesPerRequest;
    lines.push(`| ${benchCase.title} | ${Math.round(onServer.bytesPerRequest).toLocaleString('en')} | ${Math.round(onFloor.bytesPerRequest).toLocaleString('en')} | ${ratio.toFixed(2)}× | ${onServer.collections}, ${onFloor.collections} |`);
    log(lines[lines.length - 1]!);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  for (const service of running) await service.stop();
}
