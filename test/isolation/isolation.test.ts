import { loadRegistry } from '../../src/engine/definition/registry.ts';
import { createKeyCache } from '../../src/server/auth/key-cache.ts';
import { familiesInRun, familiesInRunNote } from '../support/families-in-run.ts';
import { resetDatabase, testDatabase } from '../support/test-database.ts';
import { startTestServer, type TestServer } from '../support/test-server.ts';
import { defineChangesChecks } from './changes-checks.ts';
import { defineCountsChecks } from './counts-checks.ts';
import { defineCursorChecks } from './cursor-checks.ts';
import { defineFilterChecks } from './filter-checks.ts';
import { defineGetChecks } from './get-checks.ts';
import { defineIncludeChecks } from './include-checks.ts';
import { defineListChecks } from './list-checks.ts';
import { plantWorld, type World } from './plant-world.ts';
import { listedFamilies } from '../support/registry-lookups.ts';
import type { Matrix } from './probe.ts';
import { defineRangeChecks } from './range-checks.ts';
import { defineRestrictionChecks } from './restriction-checks.ts';
import { defineTenantChecks } from './tenant-checks.ts';
import { defineWorldChecks } from './world-checks.ts';

/**
 * Tenant isolation, proven for every family (issue 7, item 1): one world of
 * brands A, B and C, planted once from the registry with clean and
 * adversarial cross-brand references, then every list and get route of every
 * family asked with every key, filter, range bound, sort, include and cursor,
 * and every counts route and changes feed; and every route and include of
 * every family with keys restricted to families and areas. Nothing here names
 * a family: whatever is in resources/ is covered.
 */

const registry = await loadRegistry();
const tenant = registry.resources.find((resource) => resource.scope === 'tenant');

describe(`tenant isolation matrix (generated from resources/)${familiesInRunNote(listedFamilies(registry))}`, function () {
  this.timeout(120_000);
  let world: World | null = null;
  let server: TestServer | null = null;
  let cachedServer: TestServer | null = null;
  const matrix = (): Matrix => {
    if (!world || !server || !cachedServer) throw new Error('the isolation world was not planted');
    return { registry, world, server, cachedServer };
  };

  before(async () => {
    // Shared rows are seen by every brand: the world needs a database with no one else's.
    await resetDatabase((await testDatabase()).db);
    world = await plantWorld(registry);
    server = await startTestServer();
    // The app as main.ts wires it, with the key cache: a grant cached for one brand must never answer for another.
    cachedServer = await startTestServer({ registry, keyCache: createKeyCache({ ttlMs: 60_000 }) });
  });
  after(async () => {
    await server?.close();
    await cachedServer?.close();
    // And leaves none of its shared rows to the suites that follow.
    await resetDatabase((await testDatabase()).db);
  });

  defineWorldChecks(matrix);
  if (tenant) describe(`${tenant.path} (tenant)`, () => defineTenantChecks(tenant, matrix));

  for (const resource of familiesInRun(listedFamilies(registry))) {
    describe(`${resource.path} (${resource.scope})`, () => {
      defineListChecks(resource, matrix);
      defineGetChecks(resource, matrix);
      defineCursorChecks(resource, matrix);
      defineFilterChecks(resource, matrix);
      defineRangeChecks(resource, matrix);
      defineCountsChecks(resource, matrix);
      defineIncludeChecks(resource, matrix);
      defineChangesChecks(resource, matrix);
      defineRestrictionChecks(resource, matrix, registry);
    });
  }
});
