import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import type { Writable } from 'node:stream';

/** A saved state that cannot be resumed with these arguments, or a file that no longer matches it. */
export class ExportRefused extends Error {
  override readonly name = 'ExportRefused';
}

/** Where an export writes: the bytes written so far (the file's length), and a write that respects backpressure. */
export interface Sink {
  bytes: number;
  write(text: string): Promise<void>;
  /** Makes what was written durable before a state says it is there. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Where a file sink starts writing: `empty` creates or empties the file (a
 * fresh export); `end` creates it if missing and writes after what it holds
 * (the next batch of an incremental export); a length cuts the file back to
 * that length (a resume: what was written after the last saved state is
 * dropped and written again), refusing a file shorter than that.
 */
export type SinkStart = 'empty' | 'end' | number;

export async function fileSink(path: string, start: SinkStart): Promise<Sink> {
  let handle: FileHandle;
  let bytes = 0;
  if (start === 'empty') {
    handle = await open(path, 'w');
  } else if (start === 'end') {
    // Neither 'a' (its writes ignore positions) nor 'r+' (it needs the file): read-write, created when missing.
    handle = await open(path, constants.O_RDWR | constants.O_CREAT);
    bytes = (await handle.stat()).size;
  } else {
    const size = await stat(path).then((s) => s.size, () => -1);
    if (size < start) {
      throw new ExportRefused(`${path} is ${size < 0 ? 'missing' : `shorter (${size} bytes) than its saved state (${start} bytes)`}; add --restart to start over`);
    }
    handle = await open(path, 'r+');
    await handle.truncate(start);
    bytes = start;
  }
  const sink: Sink = {
    bytes,
    async write(text) {
      const buffer = Buffer.from(text, 'utf8');
      for (let done = 0; done < buffer.length;) {
        const { bytesWritten } = await handle.write(buffer, done, buffer.length - done, sink.bytes + done);
        done += bytesWritten;
      }
      sink.bytes += buffer.length;
    },
    flush: () => handle.datasync(),
    close: () => handle.close(),
  };
  return sink;
}

export function streamSink(stream: Writable): Sink {
  const sink: Sink = {
    bytes: 0,
    async write(text) {
      if (text === '') return;
      sink.bytes += Buffer.byteLength(text);
      if (!stream.write(text)) await new Promise<void>((resolve) => stream.once('drain', resolve));
    },
    flush: async () => undefined,
    close: async () => undefined,
  };
  return sink;
}
