/**
 * The engine's SQL uses knex's `?` placeholders; Postgres takes `$1..$n`.
 * This rewrites them the way knex does before it hands a raw query to `pg`
 * (each `?` in order, `\?` a literal question mark), so the server
 * (`run-query.ts`) and the bench's floor send Postgres the text knex would.
 * `??` (knex's identifier binding) is refused: the engine never writes it.
 */
export function toPositional(sql: string): string {
  let count = 0;
  return sql.replace(/\\\?|\?\??/g, (match) => {
    if (match === '\\?') return '?';
    if (match === '??') throw new Error('identifier bindings (??) are not supported');
    count += 1;
    return `$${count}`;
  });
}

