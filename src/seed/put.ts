import type { Knex } from 'knex';
import { insertRecords, type RecordInput } from '../db/insert-records.ts';
import type { Registry } from '../engine/definition/registry.ts';
import type { SeedClock } from './seed-clock.ts';

/** A record as written: its fields, with the id `put` gave it (or the one it came with). */
export type SeededRecord = RecordInput & { readonly id: string };

/**
 * Writes records of the family at `path` for a brand (null: shared rows, or
 * the brand family itself). Each record gets an id unless it has one, and
 * `createdAt`/`updatedAt` from the seed clock unless it sets them.
 */
export type Put = (path: string, brandId: string | null, records: readonly RecordInput[]) => Promise<SeededRecord[]>;

/** Writes records given by name and returns their ids by the same names, in the order given. */
export type PutNamed = <K extends string>(path: string, brandId: string | null, records: Readonly<Record<K, RecordInput>>) => Promise<Record<K, string>>;

/** A row `put` wrote: its id and the brand it was written for (null: a row of no brand). */
export interface WrittenRow {
  readonly id: string;
  readonly brandId: string | null;
}

/** Every row `put` wrote, by family, in the order written: what derived rows link to. */
export interface WrittenRows {
  of(path: string): readonly WrittenRow[];
}

/** `put` and `putNamed` over one transaction, one clock and one id sequence, and the rows they wrote. */
export function createPut({ db, registry, clock, newId }: { db: Knex; registry: Registry; clock: SeedClock; newId: () => string }): {
  put: Put;
  putNamed: PutNamed;
  written: WrittenRows;
} {
  const rowsByPath = new Map<string, WrittenRow[]>();
  const put: Put = async (path, brandId, records) => {
    const resource = registry.get(path);
    const names = new Set(resource.fields.map((field) => field.name));
    const stamped = records.map((record): SeededRecord => {
      const now = clock.next();
      return {
        ...record,
        id: typeof record.id === 'string' ? record.id : newId(),
        ...(names.has('createdAt') && record.createdAt === undefined ? { createdAt: now } : {}),
        ...(names.has('updatedAt') && record.updatedAt === undefined ? { updatedAt: record.createdAt ?? now } : {}),
      };
    });
    await insertRecords({ db, resource, brandId, records: stamped });
    const rows = rowsByPath.get(path) ?? [];
    rows.push(...stamped.map(({ id }) => ({ id, brandId })));
    rowsByPath.set(path, rows);
    return stamped;
  };
  const putNamed: PutNamed = async <K extends string>(path: string, brandId: string | null, records: Readonly<Record<K, RecordInput>>) => {
    const entries = Object.entries(records) as [K, RecordInput][];
    const written = await put(path, brandId, entries.map(([, record]) => record));
    return Object.fromEntries(entries.map(([name], i) => [name, written[i]!.id])) as Record<K, string>;
  };
  return { put, putNamed, written: { of: (path) => rowsByPath.get(path) ?? [] } };
}
