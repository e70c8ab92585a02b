/**
 * Loaded into a server under measurement (`node --import tsx --import
 * ./bench/measure/heap-probe.ts`) when `HEAP_PROBE_FILE` is set: the bytes
 * its JavaScript heap allocates between two SIGUSR2, written to that file as
 * JSON. Allocated = heap used at the end - heap used at the start + what
 * every collection in between freed (V8's `GCProfiler`), so collections
 * during the window do not hide garbage, and none has to be forced.
 */
import { writeFileSync } from 'node:fs';
import { GCProfiler, getHeapStatistics } from 'node:v8';

/** What the probe writes at the end of a window. */
export interface HeapWindow {
  readonly allocatedBytes: number;
  readonly collections: number;
}

interface GcStatistics {
  beforeGC: { heapStatistics: { usedHeapSize: number } };
  afterGC: { heapStatistics: { usedHeapSize: number } };
}

const file = process.env.HEAP_PROBE_FILE;
if (file) {
  let open: { profiler: GCProfiler; used: number } | null = null;
  process.on('SIGUSR2', () => {
    const used = getHeapStatistics().used_heap_size;
    if (open === null) {
      const profiler = new GCProfiler();
      profiler.start();
      open = { profiler, used };
      writeFileSync(file, JSON.stringify({ started: true }));
      return;
    }
    const statistics = (open.profiler.stop()?.statistics ?? []) as GcStatistics[];
    const freed = statistics.reduce((sum, gc) => sum + gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize, 0);
    const window: HeapWindow = { allocatedBytes: used - open.used + freed, collections: statistics.length };
    open = null;
    writeFileSync(file, JSON.stringify(window));
  });
}
