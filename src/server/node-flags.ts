/**
 * The options Node is started with to serve: `npm start`, `npm run
 * start:cluster` (its workers inherit them) and the image's CMD carry them,
 * and the benches, the soak and the tests start the server the same way
 * (test/server/node-flags.test.ts holds package.json to this list,
 * test/tools/deployment-files.test.ts the Dockerfile). They cannot be set
 * from inside the process: V8 reads them when it makes its heap, before any
 * script runs (v8.setFlagsFromString was tried: no effect), and Node refuses
 * them in NODE_OPTIONS.
 *
 * `--no-memory-reducer`: V8's memory reducer runs extra full collections
 * whenever the allocation rate drops, to hand memory back; an instance that
 * holds followers waiting on live changes allocates slowly and steadily, so
 * it kept collecting. With 1,000 followers waiting and nobody writing the
 * server took 3.5 % of a core with it and 2.0 to 2.2 % without
 * (docs/PERFORMANCE.md, "Live changes"). The price: the instance keeps its
 * memory's high-water mark (199 MB idle after the bench's waiting phases,
 * against 126 MB). Under load the reducer does not run; collections still
 * happen as the heap grows (main.ts keeps that growth to 30 %).
 */
export const SERVER_NODE_FLAGS: readonly string[] = Object.freeze(['--no-memory-reducer']);

/** The flags of SERVER_NODE_FLAGS this process was not started with (a server started some other way). */
export function missingServerNodeFlags(execArgv: readonly string[] = process.execArgv): string[] {
  return SERVER_NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
}
