import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';

/** A file that a command derives from the registry, whole. */
export interface GeneratedFile {
  readonly path: string;
  readonly content: string;
}

/**
 * Writes generated files, or with `check` compares them with what is on disk
 * and writes nothing. Returns the paths that were (or would be) changed, so a
 * command can fail CI when the committed copies are stale.
 */
export async function syncGeneratedFiles(files: readonly GeneratedFile[], { check }: { check: boolean }): Promise<string[]> {
  const changed: string[] = [];
  for (const file of files) {
    const current = await readFile(file.path, 'utf8').catch(() => null);
    if (current === file.content) continue;
    changed.push(relative(process.cwd(), file.path));
    if (check) continue;
    await mkdir(dirname(file.path), { recursive: true });
    await writeFile(file.path, file.content);
  }
  return changed;
}

/** Reports the outcome of `syncGeneratedFiles` on stderr and sets the exit code (1 when `check` found stale files). */
export function reportGeneratedFiles(changed: readonly string[], { check, what, command }: { check: boolean; what: string; command: string }): void {
  if (changed.length === 0) {
    process.stderr.write(`${what}: up to date.\n`);
    return;
  }
  if (check) {
    process.stderr.write(`${what}: stale, run \`${command}\` and commit:\n${changed.map((path) => `  ${path}\n`).join('')}`);
    process.exitCode = 1;
    return;
  }
  process.stderr.write(`${what}: wrote ${changed.length} file(s):\n${changed.map((path) => `  ${path}\n`).join('')}`);
}
