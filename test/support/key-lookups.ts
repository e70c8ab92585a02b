import type { Knex } from 'knex';

/** How many key lookups `body` sent to the database (the query that reads `api_keys`). */
export async function keyLookups(db: Knex, body: () => Promise<void>): Promise<number> {
  let lookups = 0;
  const listen = (query: { sql: string }): void => {
    if (query.sql.includes('from api_keys k')) lookups += 1;
  };
  db.on('query', listen);
  try {
    await body();
  } finally {
    db.off('query', listen);
  }
  return lookups;
}
