import { readFile, rm } from 'node:fs/promises';
import type { HeapWindow } from './heap-probe.ts';
import type { ServiceProcess } from './service-process.ts';

/** A process started with the heap probe (heap-probe.ts), and the file it answers in. */
export interface ProbedService {
  readonly service: ServiceProcess;
  readonly probeFile: string;
}

/** The bytes a process's heap allocated per request over a run, and how many collections ran meanwhile. */
export interface Allocation {
  readonly bytesPerRequest: number;
  readonly collections: number;
}

/** The Node options that load the probe, and its environment, for a process answering in `probeFile`. */
export function probeSetup(probeFile: string): { nodeArgs: readonly string[]; env: Readonly<Record<string, string>> } {
  return { nodeArgs: ['--import', './bench/measure/heap-probe.ts'], env: { HEAP_PROBE_FILE: probeFile } };
}

async function signal<T>({ service, probeFile }: ProbedService): Promise<T> {
  await rm(probeFile, { force: true });
  process.kill(service.pid, 'SIGUSR2');
  for (let tries = 0; tries < 500; tries += 1) {
    const text = await readFile(probeFile, 'utf8').catch(() => '');
    if (text !== '') return JSON.parse(text) as T;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${service.name} did not answer the heap probe`);
}

/** Sends `count` requests, `connections` at a time, cycling through the paths; each must answer 200. */
async function send({ origin, paths, headers, count, connections }: {
  origin: string;
  paths: readonly string[];
  headers: Readonly<Record<string, string>>;
  count: number;
  connections: number;
}): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const path = paths[next % paths.length]!;
      next += 1;
      const answer = await fetch(`${origin}${path}`, { headers });
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`GET ${path} answered ${answer.status}`);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
}

/**
 * The heap bytes a process allocates per request: a warm-up of `count`
 * requests, then `count` more inside the probe's window.
 */
export async function allocationPerRequest({ probed, paths, headers, count, connections }: {
  probed: ProbedService;
  paths: readonly string[];
  headers: Readonly<Record<string, string>>;
  count: number;
  connections: number;
}): Promise<Allocation> {
  const load = { origin: probed.service.origin, paths, headers, count, connections };
  await send(load);
  await signal(probed);
  await send(load);
  const window = await signal<HeapWindow>(probed);
  return { bytesPerRequest: window.allocatedBytes / count, collections: window.collections };
}
