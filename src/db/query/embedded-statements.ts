import type { PGlite } from '@electric-sql/pglite';
import type { Row } from '../../engine/read/reads.ts';
import { isStaleStatement } from './prepared-statements.ts';

/**
 * Named prepared statements on the embedded database (PGlite), as
 * prepared-statements.ts keeps them on Postgres: each query shape is parsed
 * and planned once, then only bound and run. PGlite's own `query` parses and
 * plans every call: for a get by id with its joins that was four fifths of
 * the call (0.49 ms against 0.10 ms prepared, docs/PERFORMANCE.md), and the
 * embedded database is what a new user and the test suite run on.
 *
 * The protocol messages go through PGlite's public `execProtocolStream`,
 * serialised and read back by PGlite's own exported protocol helpers, so a
 * row comes out as `query` would give it (the same type parsers). The
 * exchange holds PGlite's query lock (`runExclusive`) from Parse to Sync.
 *
 * Bounded like Postgres's: at most `perConnection` statements, the least
 * recently used one closed to make room. A statement that can no longer run
 * as prepared (a migration changed a selected column's type) is forgotten
 * and the query runs once more through `query`.
 */

/** What PGlite exports for speaking its protocol (imported by open-database.ts, which loads PGlite lazily). */
export interface PGliteProtocol {
  readonly protocol: typeof import('@electric-sql/pglite')['protocol'];
  readonly parse: typeof import('@electric-sql/pglite')['parse'];
}

interface Prepared {
  readonly name: string;
  /** The type of each parameter, as Postgres inferred it: each value is serialised by its type's serializer. */
  readonly parameterTypes: readonly number[];
}

type Run = (text: string, values: readonly unknown[]) => Promise<Row[]>;

/** Prepared runners by PGlite instance: the embedded database's one connection. */
const runners = new WeakMap<object, Run>();

/** The runner of `connection` if it is an embedded database that prepares its statements; undefined otherwise. */
export function embeddedStatements(connection: object): Run | undefined {
  return runners.get(connection);
}

/** Prepares the engine's statements on `pglite` from now on (open-database.ts). */
export function prepareEmbeddedStatements(pglite: PGlite, { protocol, parse }: PGliteProtocol, { perConnection }: { perConnection: number }): void {
  const { serialize } = protocol;
  const statements = new Map<string, Prepared>();
  let made = 0;
  const exchange = (message: Uint8Array) => pglite.execProtocolStream(message, { syncToFs: false });

  /** Parses `text` as a named statement and reads its parameter types (inside the caller's exchange, before its Sync). */
  const prepareText = async (text: string): Promise<Prepared> => {
    if (statements.size >= perConnection) {
      const [oldest, { name: closing }] = statements.entries().next().value!;
      statements.delete(oldest);
      await exchange(serialize.close({ type: 'S', name: closing }));
    }
    made += 1;
    const name = `bcat_${made}`;
    await exchange(serialize.parse({ name, text }));
    return { name, parameterTypes: parse.parseDescribeStatementResults(await exchange(serialize.describe({ type: 'S', name }))) };
  };

  const runPrepared = (text: string, values: readonly unknown[]): Promise<Row[]> => pglite.runExclusive(async () => {
    const messages: Awaited<ReturnType<typeof exchange>> = [];
    try {
      const statement = statements.get(text) ?? await prepareText(text);
      // Most recently used last (a Map keeps insertion order).
      statements.delete(text);
      statements.set(text, statement);
      const parameters = values.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serializer = pglite.serializers[statement.parameterTypes[i]!];
        return serializer ? serializer(value) : String(value);
      });
      messages.push(...await exchange(serialize.bind({ statement: statement.name, values: parameters })));
      messages.push(...await exchange(serialize.describe({ type: 'P' })));
      messages.push(...await exchange(serialize.execute({})));
    } finally {
      // After an error the backend skips everything up to the Sync: it ends the exchange either way.
      messages.push(...await exchange(serialize.sync()));
    }
    await pglite.syncToFs();
    return parse.parseResults(messages, pglite.parsers)[0]!.rows as Row[];
  });

  runners.set(pglite, async (text, values) => {
    try {
      return await runPrepared(text, values);
    } catch (error) {
      if (!isStaleStatement(error)) throw error;
      // Planned for a table that has changed since: forgotten (Postgres keeps it until closed), run unprepared.
      const stale = statements.get(text);
      statements.delete(text);
      if (stale) await pglite.runExclusive(async () => {
        await exchange(serialize.close({ type: 'S', name: stale.name }));
        await exchange(serialize.sync());
      });
      return (await pglite.query<Row>(text, values as unknown[])).rows;
    }
  });
}

