import { recordTypeName, type OpenApiExamples } from '../../src/engine/openapi/build-openapi.ts';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import type { Registry } from '../../src/engine/definition/registry.ts';
import type { Field, Resource } from '../../src/engine/definition/resource.ts';
import { filterSchemas } from '../../src/engine/compile/schemas.ts';
import { listSorts } from '../../src/engine/compile/list-sorts.ts';
import { AREAS } from '../../src/engine/definition/normalize-resource.ts';
import { areaName } from '../../src/engine/openapi/build-openapi.ts';
import { RANGE_BOUNDS, rangeParameter } from '../../src/engine/definition/range-filters.ts';

/**
 * The Markdown reference of every family, from the registry: one page per
 * family (fields, filters, includes, an example) and an index. Written to
 * `docs/reference/` by `npm run docs`.
 */

const GENERATED = '<!-- Generated from the registry by `npm run docs`: edit resources/, not this file. -->';

/** A table cell: no line breaks, no unescaped pipes. */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

function fieldType(field: Field): string {
  if (field.values) return `enum: ${field.values.map((value) => `\`${value}\``).join(', ')}`;
  if (field.references) return `${field.type}, id of [${field.references}](${field.references}.md)`;
  return field.type;
}

function operations(resource: Resource): string[] {
  if (resource.scope === 'tenant') return [`GET ${API_BASE_PATH}/${resource.path}/{brand}`];
  return [
    `GET ${API_BASE_PATH}/brands/{brand}/${resource.path}`,
    `GET ${API_BASE_PATH}/brands/{brand}/${resource.path}/{id}`,
    ...(resource.countable.length > 0 ? [`GET ${API_BASE_PATH}/brands/{brand}/${resource.path}/counts?by=<field>`] : []),
    `GET ${API_BASE_PATH}/brands/{brand}/${resource.path}/changes`,
  ];
}

/** The section on what else the list may be asked (CONTRACT.md §8): its orders, its ranges and its counts. */
function askingSection(resource: Resource): string[] {
  if (resource.scope === 'tenant') return [];
  const sorts = [...listSorts(resource).keys()].map((name) => `\`${name}\``).join(', ');
  const sections = ['## Asking the list', `**Orders** (\`sort\`): ${sorts}. Without \`sort\`, \`createdAt\`; ties follow in \`createdAt\`, then \`id\` order; nulls last ascending, first descending.`];
  sections.push(table(['range', 'bounds', 'type'], resource.ranges.map((field) => [
    `\`${field.name}\``, RANGE_BOUNDS.map((bound) => `\`${rangeParameter(field.name, bound)}\``).join(' '), field.type,
  ])));
  sections.push(resource.countable.length > 0
    ? `**Counts by value** (\`counts?by=\`): ${resource.countable.map((field) => `\`${field.name}\``).join(', ')}, with any of the list's filters.`
    : '**Counts by value**: none; this family declares no countable field.');
  sections.push('See [asking lists](../guides/asking-lists.md).');
  return sections;
}

export function renderFamilyPage(resource: Resource, registry: Registry, example: unknown): string {
  const sections = [
    GENERATED,
    `# ${resource.title}`,
    ...(resource.description ? [resource.description] : []),
    operations(resource).map((operation) => `- \`${operation}\``).join('\n'),
    `Record type \`${recordTypeName(resource.path)}\`; ${resource.scope === 'shared' ? 'shared rows (no brand) and the brand\'s own' : 'the brand\'s own records only'}. Area: ${resource.area}.`,
    '## Fields',
    table(['field', 'type', 'null', 'description'], resource.recordFields.map((field) => [
      `\`${field.name}\``, fieldType(field), field.nullable ? 'yes' : 'no', field.description ?? '',
    ])),
  ];
  // A range's four bounds are one row of the section on asking the list.
  const bounds = new Set(resource.ranges.flatMap((field) => RANGE_BOUNDS.map((bound) => rangeParameter(field.name, bound))));
  const filters = Object.entries(filterSchemas(resource)).filter(([name]) => !bounds.has(name));
  if (filters.length > 0) {
    sections.push('## Filters', 'Query parameters of the list, combined with AND.', table(['parameter', 'matches'], filters.map(([name, schema]) => [
      `\`${name}\``, String(schema.description ?? ''),
    ])));
  }
  if (resource.includes.length > 0) {
    sections.push('## Includes', '`include=a,b` embeds related records in each record, on the list and on one record.', table(['include', 'embeds', 'description'], resource.includes.map((include) => [
      `\`${include.name}\``,
      `${include.cardinality === 'one' ? 'the' : 'every'} [${registry.get(include.resource).title}](${include.resource}.md) record whose \`${include.remoteField}\` is this record's \`${include.localField}\`${include.cardinality === 'one' ? ' (or null)' : ''}`,
      include.description ?? '',
    ])));
  }
  sections.push(...askingSection(resource));
  if (example !== undefined) sections.push('## Example', 'From the demo data (`npm start`):', `\`\`\`json\n${JSON.stringify(example, null, 2)}\n\`\`\``);
  return `${sections.join('\n\n')}\n`;
}

export function renderIndexPage(registry: Registry): string {
  const areas = AREAS.flatMap((area) => {
    const rows = registry.resources.filter((resource) => resource.area === area).map((resource) => [
      `[${resource.title}](${resource.path}.md)`, `\`${resource.path}\``, resource.description ?? '',
    ]);
    return rows.length === 0 ? [] : [`## ${areaName(area)}`, table(['family', 'path', 'description'], rows)];
  });
  return `${[
    GENERATED,
    '# API reference',
    `Every family of the API, generated from \`resources/\`, area by area (a key may be limited to some areas or families: [keys](../guides/keys.md)). Paths are under \`${API_BASE_PATH}\`; the OpenAPI document is [../openapi.json](../openapi.json), and the server serves it at \`${API_BASE_PATH}/openapi.json\` and renders it at \`${API_BASE_PATH}/docs\`.`,
    ...areas,
  ].join('\n\n')}\n`;
}

/** Every page of the reference, by file name. */
export function renderReference(registry: Registry, examples: OpenApiExamples): Map<string, string> {
  const pages = new Map<string, string>([['README.md', renderIndexPage(registry)]]);
  for (const resource of registry.resources) pages.set(`${resource.path}.md`, renderFamilyPage(resource, registry, examples[resource.path]));
  return pages;
}
