/**
 * The export's progress on stderr: records so far of the list's `totalItems`.
 * On a terminal, one line redrawn in place with a bar; otherwise (a log, a
 * pipe) a plain line every few pages and one at the end, so a log is not
 * flooded and every line stands alone.
 */

export interface ProgressCounts {
  readonly records: number;
  readonly totalItems: number;
}

export interface Progress {
  /** The run goes on from a saved state. */
  resumed(args: { records: number; statePath: string }): void;
  /** A page is written. */
  page(counts: ProgressCounts): void;
  /** The export is complete. */
  finished(counts: ProgressCounts): void;
  /** The run stopped before the end and can be resumed. */
  stopped(args: ProgressCounts & { resumable: boolean }): void;
  /** The client waits before asking again (a 429's Retry-After, a network failure). */
  retrying(args: { delayMs: number; reason: string }): void;
}

const BAR_WIDTH = 30;
/** Without a terminal: one line per this many pages. */
const PLAIN_EVERY_PAGES = 10;

const percent = ({ records, totalItems }: ProgressCounts): number =>
  totalItems === 0 ? 100 : Math.min(100, Math.floor((records / totalItems) * 100));

/** `[##########--------------------]  120/500 (24%)` */
export function progressBar(counts: ProgressCounts): string {
  const filled = Math.round((percent(counts) / 100) * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${counts.records}/${counts.totalItems} (${percent(counts)}%)`;
}

export function createProgress({ write, tty, label }: {
  /** Where lines go (stderr). */
  write: (text: string) => void;
  /** Redraw one line in place (stderr is a terminal). */
  tty: boolean;
  /** Names the export: the family. */
  label: string;
}): Progress {
  let pages = 0;
  // `\r` back to the start of the line, `\x1b[K` clears what a longer line left.
  const redraw = (counts: ProgressCounts, end = ''): void => write(`\r${label} ${progressBar(counts)}${end}\x1b[K`);
  const plain = (counts: ProgressCounts, end = ''): void =>
    write(`${label}: ${counts.records}/${counts.totalItems} records (${percent(counts)}%)${end}\n`);
  return {
    resumed({ records, statePath }) {
      write(`${label}: resuming after ${records} records (state in ${statePath})\n`);
    },
    page(counts) {
      pages += 1;
      if (tty) redraw(counts);
      else if (pages % PLAIN_EVERY_PAGES === 0) plain(counts);
    },
    finished(counts) {
      if (tty) {
        redraw(counts, ', complete');
        write('\n');
      } else {
        plain(counts, ', complete');
      }
    },
    retrying({ delayMs, reason }) {
      const wait = `${reason}, retrying in ${Math.ceil(delayMs / 1000)} s`;
      // On a terminal the next page's redraw replaces it.
      write(tty ? `\r${label} ${wait}\x1b[K` : `${label}: ${wait}\n`);
    },
    stopped({ records, totalItems, resumable }) {
      write(`${tty ? '\n' : ''}${label}: stopped after ${records}/${totalItems} records${resumable ? '; run the same command again to resume' : ''}\n`);
    },
  };
}
