import { readFile } from 'node:fs/promises';
import { residentBytes } from '../../tools/shared/process-memory.ts';

/** What a process runs (Linux `/proc/<pid>/comm`), or null where it cannot be read. */
export async function processName(pid: number): Promise<string | null> {
  try {
    return (await readFile(`/proc/${pid}/comm`, 'utf8')).trim();
  } catch {
    return null;
  }
}

/** Kernel clock ticks per second, the unit of /proc/<pid>/stat CPU times (100 on Linux builds in use). */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds (user and system) a process has used so far (Linux /proc/<pid>/stat), or null where it cannot be read. */
export async function cpuSeconds(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces; utime and stime are the 12th and 13th of them.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `intervalMs` until stopped; `stop` gives the peak (null when never readable). */
export function sampleResidentBytes({ pid, intervalMs = 100 }: { pid: number; intervalMs?: number }): { stop(): Promise<number | null> } {
  let peak: number | null = null;
  let reading: Promise<void> = Promise.resolve();
  const sample = (): void => {
    reading = residentBytes(pid).then((bytes) => {
      if (bytes !== null && (peak === null || bytes > peak)) peak = bytes;
    });
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await reading;
      sample();
      await reading;
      return peak;
    },
  };
}
