import { expect } from 'chai';
import type { Registry } from '../../../src/engine/definition/registry.ts';
import { AREAS } from '../../../src/engine/definition/normalize-resource.ts';
import { areaName, embeddedTypeName, recordTypeName } from '../../../src/engine/openapi/build-openapi.ts';
import { builtDocument, familyPathsOf, findRefCycle, operationsOf, refsIn, resolveRef, type Doc } from './built-document.ts';

/** The ceiling of `docs/openapi.json` (3.5 MiB; 3.2 now): a document that inlines its shared parts again is far above it. */
const MAX_DOCUMENT_BYTES = 3.5 * 1024 * 1024;

describe('buildOpenApi, over the whole registry', () => {
  let registry: Registry;
  let doc: Doc;
  before(async () => {
    ({ registry, doc } = await builtDocument());
  });

  describe('the $ref graph', () => {
    it('findRefCycle names a cycle, and takes a reference shared by two schemas for none', () => {
      const schemas = (entries: Doc) => ({ components: { schemas: entries } });
      const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
      const cyclic = schemas({ A: { properties: { b: ref('B') } }, B: { items: ref('C') }, C: { oneOf: [ref('A'), { type: 'null' }] } });
      // The walk starts from the first reference the document gives: A's, to B.
      expect(findRefCycle(cyclic)).to.deep.equal(['#/components/schemas/B', '#/components/schemas/C', '#/components/schemas/A', '#/components/schemas/B']);
      expect(findRefCycle(schemas({ A: { properties: { self: ref('A') } } }))).to.deep.equal(['#/components/schemas/A', '#/components/schemas/A']);
      // A diamond: D is reached twice, by two paths, and is no cycle.
      expect(findRefCycle(schemas({ A: { allOf: [ref('B'), ref('C')] }, B: ref('D'), C: ref('D'), D: { type: 'string' } }))).to.equal(null);
      // Reached from a path too, not only from components.
      expect(findRefCycle({ paths: { '/x': { get: { parameters: [{ $ref: '#/components/parameters/P' }] } } }, components: { parameters: { P: { schema: { $ref: '#/components/parameters/P' } } } } }))
        .to.deep.equal(['#/components/parameters/P', '#/components/parameters/P']);
    });

    it('every $ref of the document resolves', () => {
      const refs = [...new Set(refsIn(doc))];
      expect(refs.length, 'the document refers to its components').to.be.greaterThan(registry.resources.length * 4);
      expect(refs.filter((ref) => resolveRef(doc, ref) === undefined)).to.deep.equal([]);
    });

    it('has no cycle, so tools that resolve references whole (mock servers, code generators) can', () => {
      const cycle = findRefCycle(doc);
      expect(cycle, cycle ? `$ref cycle: ${cycle.join(' -> ')}` : '').to.equal(null);
    });

    it('an include embeds the bare record of its family, which refers to nothing, and so does the changes feed', () => {
      const included = new Set(registry.resources.flatMap((resource) => resource.includes.map((include) => include.resource)));
      for (const resource of registry.resources) {
        const name = recordTypeName(resource.path);
        const embedded = doc.components.schemas[embeddedTypeName(resource.path)];
        // Only where something refers to it: the family's feed, or an include of it (the tenant family has neither: no unused component).
        if (resource.scope === 'tenant' && !included.has(resource.path)) {
          expect(embedded, `${resource.path}: no bare record nothing refers to`).to.equal(undefined);
          continue;
        }
        expect(embedded, `${resource.path}: ${embeddedTypeName(resource.path)}`).to.be.an('object');
        expect(Object.keys(embedded.properties), resource.path).to.deep.equal(resource.recordFields.map((field) => field.name));
        expect(embedded.required, resource.path).to.deep.equal(resource.recordFields.map((field) => field.name));
        expect(refsIn(embedded), `${resource.path}: an embedded record refers to no schema`).to.deep.equal([]);
        const record = doc.components.schemas[name];
        expect(Object.keys(record.properties), resource.path)
          .to.deep.equal([...resource.recordFields.map((field) => field.name), ...resource.includes.map((include) => include.name)]);
        for (const include of resource.includes) {
          const target = `#/components/schemas/${embeddedTypeName(registry.get(include.resource).path)}`;
          expect(refsIn(record.properties[include.name]), `${resource.path} include ${include.name}`).to.deep.equal([target]);
        }
        if (resource.scope === 'tenant') continue;
        const upsert = doc.components.schemas[`${name}Change`].oneOf[0];
        expect(upsert.properties.record, `${resource.path} change`).to.deep.equal({ $ref: `#/components/schemas/${embeddedTypeName(resource.path)}` });
      }
    });

    it('every component is referenced (Redocly refuses an unused one)', () => {
      const used = new Set(refsIn(doc));
      const unused = (['schemas', 'parameters', 'responses', 'headers'] as const).flatMap((kind) =>
        Object.keys(doc.components[kind] as Doc).map((name) => `#/components/${kind}/${name}`).filter((ref) => !used.has(ref)));
      expect(unused).to.deep.equal([]);
    });
  });

  describe('areas (CONTRACT.md §4)', () => {
    it('gives every operation its family\'s area, and every family exactly its operations', () => {
      const families = new Map<string, { area: string; title: string }>();
      for (const resource of registry.resources) {
        for (const path of Object.values(familyPathsOf(resource))) families.set(path, { area: resource.area, title: resource.title });
      }
      expect(Object.keys(doc.paths)).to.have.members([...families.keys()]);
      const operations = operationsOf(doc);
      expect(operations).to.have.length(families.size);
      for (const { path, method, operation } of operations) {
        const family = families.get(path)!;
        expect(operation['x-area'], `${method} ${path}`).to.equal(family.area);
        expect(AREAS, `${method} ${path}`).to.include(operation['x-area']);
        expect(operation.tags, `${method} ${path}`).to.deep.equal([family.title]);
      }
    });

    it('groups the tags by area: the seven areas in order, each tag in exactly one group, its family\'s', () => {
      const groups = doc['x-tagGroups'] as { name: string; tags: string[] }[];
      expect(AREAS).to.have.length(7);
      expect(groups.map((group) => group.name)).to.deep.equal(AREAS.map(areaName));
      expect(groups.map((group) => group.name)).to.deep.equal(['Catalog', 'Sourcing', 'Orders', 'Logistics', 'Finance', 'Documents', 'Reference']);
      const tags = (doc.tags as { name: string }[]).map((tag) => tag.name);
      expect(new Set(tags).size, 'tag names are unique').to.equal(tags.length);
      expect(tags).to.have.length(registry.resources.length);
      const grouped = groups.flatMap((group) => group.tags);
      expect(grouped, 'no tag twice, none left out, none unknown').to.have.members(tags).and.have.length(tags.length);
      for (const resource of registry.resources) {
        const group = groups.find((candidate) => candidate.tags.includes(resource.title));
        expect(group?.name, resource.path).to.equal(areaName(resource.area));
      }
      for (const group of groups) expect(group.tags, `${group.name} has families`).to.not.be.empty;
    });
  });

  it('stays under 3.5 MiB as docs/openapi.json writes it', () => {
    const bytes = Buffer.byteLength(`${JSON.stringify(doc, null, 2)}\n`);
    expect(bytes).to.be.below(MAX_DOCUMENT_BYTES);
  });
});
