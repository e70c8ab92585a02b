import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { insertRecords, type RecordInput } from '../db/insert-records.ts';
import type { Registry } from '../engine/definition/registry.ts';

/**
 * What every group of the demo seed is handed: `put` to write records of a
 * family by API field names, and the brand they belong to. Each group adds the
 * ids of earlier groups it links to, and returns the ids later groups need.
 */

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

/**
 * The seed clock: records a minute apart, set to the moment of each step of
 * the season. Groups write in the order foreign keys need, which is not
 * always the order things happened (a sample round in March is written before
 * an order of February), so a step sets the clock to when it happened.
 */
export interface SeedClock {
  /** The next timestamp, a minute after the previous one. */
  next(): string;
  /** Sets the clock to an instant: the next record is stamped then. */
  jumpTo(at: string): void;
}

export interface SeedContext {
  readonly put: Put;
  readonly putNamed: PutNamed;
  readonly clock: SeedClock;
  /** The next id of the seed's sequence, for records that need their id before they are written. */
  readonly newId: () => string;
  /** The brand the group writes for. */
  readonly brandId: string;
}

export function createClock(start: string): SeedClock {
  let current = Date.parse(start) - 60_000;
  return {
    next() {
      current += 60_000;
      return new Date(current).toISOString();
    },
    jumpTo(at: string) {
      const target = Date.parse(at);
      if (Number.isNaN(target)) throw new Error(`seed clock: not an instant: ${at}`);
      current = target - 60_000;
    },
  };
}

/**
 * Ids for the demo data: UUIDs (version 4 in form) derived from a name and a
 * counter, so every load of the demo gives every record the same id. The docs
 * quote demo records as examples, and an id read in the docs works against
 * any fresh demo database.
 */
export function createIdSequence(name: string): () => string {
  let counter = 0;
  return () => {
    counter += 1;
    const hex = createHash('sha256').update(`${name}:${counter}`).digest('hex');
    const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };
}

/** `put` and `putNamed` over one transaction, one clock and one id sequence. */
export function createPut({ db, registry, clock, newId }: { db: Knex; registry: Registry; clock: SeedClock; newId: () => string }): { put: Put; putNamed: PutNamed } {
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
    return stamped;
  };
  const putNamed: PutNamed = async <K extends string>(path: string, brandId: string | null, records: Readonly<Record<K, RecordInput>>) => {
    const entries = Object.entries(records) as [K, RecordInput][];
    const written = await put(path, brandId, entries.map(([, record]) => record));
    return Object.fromEntries(entries.map(([name], i) => [name, written[i]!.id])) as Record<K, string>;
  };
  return { put, putNamed };
}

/** An object with one entry per key, in the order of the keys: `recordOf(['S', 'M'], (size) => ...)`. */
export function recordOf<K extends string, V>(keys: readonly K[], valueOf: (key: K, index: number) => V): Record<K, V> {
  return Object.fromEntries(keys.map((key, i) => [key, valueOf(key, i)])) as Record<K, V>;
}
