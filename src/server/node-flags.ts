/**
 * The options Node is started with to serve: `npm start`, `npm run
 * start:cluster` (its workers inherit them) and the image's CMD carry them,
 * and the benches, the soak and the tests start the server the same way
 * (test/server/node-flags.test.ts holds package.json and the Dockerfile to
 * this list). They cannot be set from inside the process: V8 makes its heap,
 * and decides these, before any script runs, and refuses them in NODE_OPTIONS.
 *
 * `--no-memory-reducer`: V8's memory reducer runs extra full collections
 * whenever the allocation rate drops, to hand memory back; an instance that
 * holds followers waiting on live changes allocates slowly and steadily, so
 * it kept collecting. With 1,000 followers waiting and nobody writing it took
 * the server from 3.5 % of a core to 2.2 % (docs/PERFORMANCE.md, "Live
 * changes"), for some 20 to 50 MB more resident at idle; under load the
 * reducer does not run and nothing changes. Collections still happen as the
 * heap grows (main.ts keeps that growth to 30 %).
 */
export const SERVER_NODE_FLAGS: readonly string[] = Object.freeze(['--no-memory-reducer']);

/** The flags of SERVER_NODE_FLAGS this process was not started with (a server started some other way). */
export function missingServerNodeFlags(execArgv: readonly string[] = process.execArgv): string[] {
  return SERVER_NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
}
