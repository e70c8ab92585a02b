const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE',
  // SQLSTATE: admin_shutdown, crash_shutdown, cannot_connect_now (starting up or in recovery), too_many_connections.
  '57P01', '57P02', '57P03', '53300',
]);

/**
 * The pg driver's own words for a connection that went away, or for a
 * database that did not answer at all: a client-side `Query read timeout`
 * fires only past the server's own statement timeout (open-database.ts), so
 * nothing answered, not even to cancel the statement.
 */
const CONNECTION_LOST = /Connection terminated|connection is closed|Client has encountered a connection error|Query read timeout$/i;

/** A failure of the connection, not of the statement: the same read can succeed on another copy. */
export function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || code.startsWith('08'))) return true;
  if (isConnectTimeout(error)) return true;
  return CONNECTION_LOST.test(error.message);
}

/**
 * The wait for a pooled connection ran out (pg-pool's words, or pg's own
 * when the connect started for it timed out first; knex's when a pool of
 * knex's own ran out): the pool is exhausted, or the database does not
 * accept connections in time.
 */
export function isConnectTimeout(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'KnexTimeoutError' || /^(timeout exceeded when trying to connect|Connection terminated due to connection timeout)$/.test(error.message);
}

/** A hot standby cancelled the statement to apply WAL: worth running again elsewhere, the replica is fine. */
export function isRecoveryConflict(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === '40001' && /conflict with recovery/i.test(error.message);
}

/**
 * pg's client-side query timeout (knex puts the SQL before pg's words): the
 * connection still waits for an answer that may never come.
 */
export function isReadTimeout(error: unknown): boolean {
  return error instanceof Error && /(^|- )Query read timeout$/.test(error.message);
}
