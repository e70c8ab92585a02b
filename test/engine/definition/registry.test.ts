import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { diffSchema, introspectSchema } from '../../../src/db/schema/schema-diff.ts';
import { DefinitionError } from '../../../src/engine/definition/definition-error.ts';
import { createRegistry, loadRegistry, RESOURCES_DIR } from '../../../src/engine/definition/registry.ts';
import { compileRegistry } from '../../../src/engine/compile/compile-registry.ts';
import type { ResourceDefinition } from '../../../src/engine/definition/resource-definition.ts';
import { planSchema } from '../../../src/engine/compile/plan-schema.ts';
import { createBrand, createTestKey } from '../../support/fixtures.ts';
import { resetDatabase, testDatabase } from '../../support/test-database.ts';
import { startTestServer } from '../../support/test-server.ts';

const DEFINE = pathToFileURL(join(RESOURCES_DIR, '..', 'src', 'engine', 'definition', 'define-resource.ts')).href;

const widgets: ResourceDefinition = { path: 'widgets', scope: 'brand', area: 'catalog', fields: { id: { type: 'uuid' }, createdAt: { type: 'timestamp', nullable: false } } };

describe('createRegistry', () => {
  it('normalizes every family, sorted by path, and finds one by path', () => {
    const registry = createRegistry([widgets, { ...widgets, path: 'gadgets' }]);
    expect(registry.resources.map((r) => r.path)).to.deep.equal(['gadgets', 'widgets']);
    expect(registry.get('widgets').table).to.equal('widgets');
    expect(() => registry.get('widget')).to.throw("no family 'widget' in the registry (did you mean 'widgets'?)");
  });

  it('refuses two families on one path or one table', () => {
    expect(() => createRegistry([widgets, widgets])).to.throw(DefinitionError, /two definitions use this path/);
    expect(() => createRegistry([widgets, { ...widgets, path: 'gadgets', table: 'widgets' }])).to.throw(DefinitionError, /already the table of widgets/);
  });
});

describe('loadRegistry', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bcat-registry-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('loads every family of resources/ with no list to edit', async () => {
    const registry = await loadRegistry();
    expect(registry.resources.map((r) => r.path)).to.include.members(['brands', 'carton-sizes', 'products', 'units-of-measure']);
  });

  it('reads resources/ once per process (one registry, compiled once), and other folders on every call', async () => {
    expect(await loadRegistry()).to.equal(await loadRegistry());
    expect(compileRegistry(await loadRegistry())).to.equal(compileRegistry(await loadRegistry()));
    expect(await loadRegistry({ dirs: [RESOURCES_DIR] })).to.not.equal(await loadRegistry({ dirs: [RESOURCES_DIR] }));
  });

  it('serves a family dropped in as one more file: routes, filters and table', async () => {
    await writeFile(join(dir, 'gizmos.ts'), `
      import { defineResource } from '${DEFINE}';
      export default defineResource({
        path: 'gizmos',
        scope: 'brand',
        area: 'catalog',
        fields: {
          id: { type: 'uuid' },
          label: { type: 'string' },
          weightG: { type: 'integer' },
          createdAt: { type: 'timestamp', nullable: false },
        },
        filters: { label: { field: 'label', match: 'exact' } },
        sorts: ['label', 'weightG'],
        ranges: ['weightG'],
        countable: ['label'],
      });
    `);
    const registry = await loadRegistry({ dirs: [RESOURCES_DIR, dir] });
    expect(registry.get('gizmos').table).to.equal('gizmos');

    // Its table comes from the same plan the migrations are generated from.
    const { db } = await testDatabase();
    const diff = diffSchema(planSchema(registry), await introspectSchema(db));
    expect(diff.problems).to.deep.equal([]);
    expect(diff.statements.every((s) => s.includes('"gizmos"'))).to.equal(true);
    for (const statement of diff.statements) await db.raw(statement);
    const server = await startTestServer({ registry });
    try {
      await resetDatabase(db);
      const brand = await createBrand('gizmo-brand');
      const { key } = await createTestKey({ brands: [brand.slug] });
      await db('gizmos').insert([
        { brand_id: brand.id, label: 'Cog', weight_g: 12, created_at: '2026-03-01T10:00:00Z' },
        { brand_id: brand.id, label: 'Sprocket', weight_g: 30, created_at: '2026-03-01T10:01:00Z' },
      ]);
      const list = await server.request('/brands/gizmo-brand/gizmos?label=Cog', { key });
      expect(list.status).to.equal(200);
      expect(list.body.items).to.have.length(1);
      expect(list.body.items[0]).to.include({ label: 'Cog', weightG: 12 });
      const one = await server.request(`/brands/gizmo-brand/gizmos/${list.body.items[0].id}`, { key });
      expect(one.body).to.deep.equal(list.body.items[0]);
      expect((await server.request('/openapi.json')).body.paths).to.have.property('/brands/{brand}/gizmos');
      // What it declares it may be asked: an order, a range and counts, each with its index from the same plan.
      const heaviest = await server.request('/brands/gizmo-brand/gizmos?sort=-weightG&weightG%5Bgte%5D=12&label=Cog&label=Sprocket', { key });
      expect(heaviest.body.items.map((item: { label: string }) => item.label)).to.deep.equal(['Sprocket', 'Cog']);
      const counted = await server.request('/brands/gizmo-brand/gizmos/counts?by=label&weightG%5Blt%5D=30', { key });
      expect(counted.body).to.deep.equal({ by: 'label', counts: [{ value: 'Cog', count: 1 }], otherItems: 0, totalItems: 1 });
    } finally {
      await server.close();
      await db.raw('drop table "gizmos" cascade');
    }
  });

  it('refuses a file whose path is not its name', async () => {
    await writeFile(join(dir, 'gizmo.ts'), `export default { path: 'gizmos', scope: 'brand', fields: {} };`);
    const error = await loadRegistry({ dirs: [dir] }).then(() => null, (e: Error) => e);
    expect(error).to.be.instanceOf(DefinitionError);
    expect(error!.message).to.equal("resources/gizmo.ts: path: 'gizmos' must equal the file name 'gizmo'");
  });
});
