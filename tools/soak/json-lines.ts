import type { Readable } from 'node:stream';

/**
 * Collects the lines a stream writes, each parsed when it is JSON and kept as
 * text when it is not, at most `max` of them (blank lines skipped). A line is
 * taken once its newline has come, however the chunks split it. Returns the
 * array, which fills as the stream writes.
 */
export function collectJsonLines({ stream, max }: { stream: Readable; max: number }): unknown[] {
  const lines: unknown[] = [];
  let pending = '';
  stream.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const complete = pending.split('\n');
    pending = complete.pop()!;
    for (const line of complete) {
      if (!line.trim() || lines.length >= max) continue;
      try {
        lines.push(JSON.parse(line));
      } catch {
        lines.push(line);
      }
    }
  });
  return lines;
}
