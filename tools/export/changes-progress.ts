/**
 * An incremental export's progress on stderr. A batch's size is not known
 * before its last page, so it counts: the changes written so far, upserts and
 * deletes. On a terminal one line is redrawn in place; otherwise a plain line
 * every few pages and one at the end.
 */

export interface ChangeCounts {
  readonly upserts: number;
  readonly deletes: number;
}

/** How a batch begins: a full sync (no token yet, --restart, or an expired token with --resync-expired), the changes since the last run, or a resume. */
export type BatchStart =
  | { readonly kind: 'full'; readonly reason: 'first' | 'restart' | 'expired' }
  | { readonly kind: 'since'; readonly syncedAt: string | null }
  | { readonly kind: 'resume'; readonly items: number };

export interface ChangesProgress {
  started(start: BatchStart & { readonly out: string }): void;
  page(counts: ChangeCounts): void;
  /** The batch is written and its token saved. */
  finished(counts: ChangeCounts & { readonly statePath: string }): void;
  stopped(counts: ChangeCounts): void;
  retrying(args: { delayMs: number; reason: string }): void;
}

const PLAIN_EVERY_PAGES = 10;

const describe = ({ upserts, deletes }: ChangeCounts): string =>
  `${upserts + deletes} change${upserts + deletes === 1 ? '' : 's'} (${upserts} upsert${upserts === 1 ? '' : 's'}, ${deletes} delete${deletes === 1 ? '' : 's'})`;

const BEGINNINGS: Readonly<Record<'first' | 'restart' | 'expired', string>> = {
  first: 'no sync token yet: a full sync, every record as an upsert after a reset line',
  restart: '--restart: a full sync, every record as an upsert after a reset line',
  expired: 'the sync token has expired (older than the server keeps deletions): a full sync, every record as an upsert after a reset line',
};

function beginning(start: BatchStart): string {
  if (start.kind === 'full') return BEGINNINGS[start.reason];
  if (start.kind === 'resume') return `resuming the unfinished batch after ${start.items} lines`;
  return `changes since the last run${start.syncedAt ? ` (${start.syncedAt})` : ''}`;
}

export function createChangesProgress({ write, tty, label }: { write: (text: string) => void; tty: boolean; label: string }): ChangesProgress {
  let pages = 0;
  const line = (text: string): void => write(tty ? `\r${label}: ${text}\x1b[K` : `${label}: ${text}\n`);
  return {
    started(start) {
      write(`${label}: ${beginning(start)}, appending to ${start.out}\n`);
    },
    page(counts) {
      pages += 1;
      if (tty || pages % PLAIN_EVERY_PAGES === 0) line(`${describe(counts)} so far`);
    },
    finished({ statePath, ...counts }) {
      write(`${tty ? '\r' : ''}${label}: ${describe(counts)}, complete; sync token saved in ${statePath}${tty ? '\x1b[K' : ''}\n`);
    },
    stopped(counts) {
      write(`${tty ? '\n' : ''}${label}: stopped after ${describe(counts)}; run the same command again to resume the batch\n`);
    },
    retrying({ delayMs, reason }) {
      line(`${reason}, retrying in ${Math.ceil(delayMs / 1000)} s`);
    },
  };
}
