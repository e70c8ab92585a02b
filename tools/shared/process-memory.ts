import { readFile } from 'node:fs/promises';

/** A process's resident set size in bytes (Linux `/proc/<pid>/status` VmRSS), or null where it cannot be read. */
export async function residentBytes(pid: number): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  const kilobytes = status ? /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1] : undefined;
  return kilobytes === undefined ? null : Number(kilobytes) * 1024;
}
