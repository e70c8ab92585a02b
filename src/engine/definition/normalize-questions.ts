import type { DefinitionChecks } from './definition-checks.ts';
import { didYouMean } from './did-you-mean.ts';
import type { Field } from './resource.ts';
import type { FieldType, Scope } from './resource-definition.ts';

/**
 * What else a family's lists may be asked (CONTRACT.md §8): the fields they
 * sort by, take ranges on, and count by. Each is a list of field names in the
 * definition; every one must be a column of this table, of a type the
 * question makes sense for, since the engine builds an index for each and
 * answers nothing it has no index for.
 */

/** The three lists a definition may give, each with the field types it takes and why. */
const QUESTIONS = {
  sorts: {
    types: ['string', 'enum', 'integer', 'decimal', 'date', 'timestamp'],
    what: 'a sort orders strings, enums, integers, decimals, dates or timestamps',
  },
  ranges: {
    types: ['integer', 'decimal', 'date', 'timestamp'],
    what: 'a range compares dates, timestamps, integers or decimals',
  },
  countable: {
    types: ['uuid', 'string', 'enum', 'integer', 'boolean', 'date'],
    what: 'counts group by uuid, string, enum, integer, boolean or date fields (statuses, types, references), not by free values',
  },
} as const satisfies Record<string, { types: readonly FieldType[]; what: string }>;

export type Question = keyof typeof QUESTIONS;

/** Fields every list sorts by and takes ranges on, without a declaration, where its records have them. */
export const IMPLICIT_ORDER_FIELDS: readonly string[] = ['createdAt', 'updatedAt'];

/** `createdAt`, and `updatedAt` where it is a timestamp column of the record: what sorts and takes ranges undeclared. */
function implicitFields(fields: readonly Field[]): Field[] {
  return IMPLICIT_ORDER_FIELDS.flatMap((name) => {
    const field = fields.find((f) => f.name === name && f.type === 'timestamp' && f.join === null && !f.hidden);
    return field ? [field] : [];
  });
}

/**
 * The fields of one of the lists, checked: each names a field of the record
 * read from this table, once, of a type the question takes. Sorts and ranges
 * start with the implicit fields, which a definition may not list again.
 */
export function normalizeQuestion({ question, declared, fields, scope, checks }: {
  question: Question;
  declared: readonly string[] | undefined;
  /** The family's fields, hidden ones included. */
  fields: readonly Field[];
  scope: Scope;
  checks: DefinitionChecks;
}): readonly Field[] {
  const { fail } = checks;
  const names = declared ?? [];
  if (!Array.isArray(names)) fail(question, 'list field names');
  if (scope === 'tenant') {
    if (names.length > 0) fail(question, 'the tenant family has no list to ask');
    return Object.freeze([]);
  }
  const implicit = question === 'countable' ? [] : implicitFields(fields);
  const out: Field[] = [...implicit];
  names.forEach((name, i) => {
    const key = `${question}[${i}]`;
    const field = fields.find((f) => f.name === name);
    if (!field) fail(key, `no field '${String(name)}'${didYouMean(String(name), fields.filter((f) => !f.hidden).map((f) => f.name))}`);
    if (implicit.includes(field!)) fail(key, `'${name}' is in ${question} of every family that has it: leave it out`);
    if (out.includes(field!)) fail(key, `'${name}' is listed twice`);
    if (field!.hidden) fail(key, `'${name}' is hidden: only a field of the record can be asked for`);
    if (field!.join !== null) fail(key, `'${name}' is read from the join '${field!.join}': only a column of this table has an index to answer from`);
    const { types, what } = QUESTIONS[question];
    if (!(types as readonly FieldType[]).includes(field!.type)) fail(key, `'${name}' is a ${field!.type} field: ${what}`);
    out.push(field!);
  });
  return Object.freeze(out);
}
