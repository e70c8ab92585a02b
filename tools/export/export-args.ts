import { FAMILIES, type FamilyPath } from '../../client/src/index.ts';
import { didYouMean } from '../../src/engine/definition/did-you-mean.ts';
import { isExportFormat, type ExportFormat } from './export-format.ts';

export const EXPORT_USAGE = `usage: npm run export -- <family> --brand <slug> [--<filter> <value>...] [--format ndjson|csv] [--out <file> [--restart]] [--page-size <1-100>]
       npm run export -- <family> --brand <slug> --sync-state <file> --out <file> [--format ndjson|csv] [--restart] [--resync-expired] [--follow] [--page-size <1-1000>]

  <family>        a family's path, such as products or carton-sizes
  --<filter>      a filter of the family, as --status approved or --status=approved
                  (use the = form for a value that starts with --)
  --format        ndjson (default): one JSON record per line; csv: RFC 4180 with a header of field names
  --out           write to this file instead of stdout; an interrupted export resumes when rerun
  --restart       with --out: drop an unfinished export's state and start over
  --page-size     records per request (default 100)

incremental (the changes feed): each run appends what changed since the last run to --out
  --sync-state    the file that keeps the family's sync token between runs (one per brand and family);
                  the first run is a full sync; a run that stops resumes its batch when rerun
                  lines: {"change":"upsert"|"delete"|"reset","id":...,"record":...} (csv: a leading change column)
  --restart       forget the token: this run is a full sync (it begins with a reset line)
  --resync-expired  when the token has expired (410), write a full sync instead of stopping with exit code 3
  --follow        do not stop after a batch: wait on the server for the next change and append each batch
                  as it comes, keeping --sync-state current, until Ctrl-C (failures are retried with backoff)

settings: API_URL (default http://127.0.0.1:3000), API_KEY (required)
to pipe stdout, run npm with -s (npm run -s export -- ...): npm writes its banner to stdout otherwise`;

/** A command line that cannot run: exit 2 with the message and the usage. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface ExportArgs {
  readonly family: FamilyPath;
  readonly brand: string;
  /** Filter values by name, in the order given, as text: the server parses and checks them. */
  readonly filters: Readonly<Record<string, string>>;
  readonly format: ExportFormat;
  readonly out: string | null;
  readonly restart: boolean;
  readonly pageSize: number;
  /** The state file of an incremental export (the changes feed), or null for a full export. */
  readonly syncState: string | null;
  /** With `syncState`: on an expired token, write a full sync instead of stopping. */
  readonly resyncExpired: boolean;
  /** With `syncState`: batch after batch, live, until stopped. */
  readonly follow: boolean;
}

/** What the command line asks for: an export, or the usage text. */
export type ExportCommand = { readonly help: true } | (ExportArgs & { readonly help: false });

/** The command's own options; any other `--name` is a filter of the family. */
const OPTIONS = ['brand', 'format', 'out', 'restart', 'page-size', 'sync-state', 'resync-expired', 'follow', 'help'] as const;
type OptionName = (typeof OPTIONS)[number];
const FLAGS: ReadonlySet<string> = new Set(['restart', 'resync-expired', 'follow', 'help']);
export const EXPORT_OPTION_NAMES: readonly string[] = OPTIONS;

const isOption = (name: string): name is OptionName => (OPTIONS as readonly string[]).includes(name);

/** The command line split into words that are not options, the command's options, and filters. */
function scanArgs(argv: readonly string[]): { positionals: string[]; options: Map<OptionName, string>; filters: Map<string, string> } {
  const positionals: string[] = [];
  const options = new Map<OptionName, string>();
  const filters = new Map<string, string>();

  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === '-h') {
      options.set('help', 'true');
      continue;
    }
    if (!token.startsWith('--') || token === '--') {
      if (token !== '--') positionals.push(token);
      continue;
    }
    const equals = token.indexOf('=');
    const name = equals === -1 ? token.slice(2) : token.slice(2, equals);
    let value = equals === -1 ? undefined : token.slice(equals + 1);
    if (FLAGS.has(name)) {
      if (value !== undefined) throw new UsageError(`--${name} takes no value`);
      value = 'true';
    } else if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      value = next;
      i++;
    }
    const target: Map<string, string> = isOption(name) ? options : filters;
    if (target.has(name)) throw new UsageError(`--${name} is given twice`);
    target.set(name, value);
  }
  return { positionals, options, filters };
}

export function parseExportArgs(argv: readonly string[]): ExportCommand {
  const { positionals, options, filters } = scanArgs(argv);
  if (options.has('help')) return { help: true };

  if (positionals.length !== 1) {
    throw new UsageError(positionals.length === 0 ? 'name the family to export' : `one family at a time, not: ${positionals.join(' ')}`);
  }
  const family = positionals[0]!;
  if (!Object.hasOwn(FAMILIES, family)) throw new UsageError(`unknown family '${family}'${didYouMean(family, Object.keys(FAMILIES))}`);
  const info = FAMILIES[family as FamilyPath];
  for (const name of filters.keys()) {
    if (!info.filters.includes(name)) {
      const known = info.filters.length > 0 ? `; its filters: ${info.filters.join(', ')}` : '; it has no filters';
      throw new UsageError(`${family} has no filter '${name}'${didYouMean(name, [...info.filters, ...OPTIONS])}${known}`);
    }
  }

  const brand = options.get('brand');
  if (!brand) throw new UsageError('--brand <slug> is required');
  const format = options.get('format') ?? 'ndjson';
  if (!isExportFormat(format)) throw new UsageError(`--format is ndjson or csv, not '${format}'`);
  const out = options.get('out') ?? null;
  const restart = options.has('restart');
  const syncState = options.get('sync-state') ?? null;
  const resyncExpired = options.has('resync-expired');
  if (syncState !== null) checkIncremental({ family, tenant: info.tenant, filters: [...filters.keys()], out });
  else if (resyncExpired) throw new UsageError('--resync-expired needs --sync-state: only an incremental export has a token to expire');
  const follow = options.has('follow');
  if (follow && syncState === null) throw new UsageError('--follow needs --sync-state: it follows the changes feed');
  if (restart && out === null) throw new UsageError('--restart needs --out: only an export to a file can be resumed');
  const maxPage = syncState === null ? 100 : 1000;
  const pageText = options.get('page-size') ?? '100';
  const pageSize = /^[1-9][0-9]*$/.test(pageText) ? Number(pageText) : NaN;
  if (!(pageSize >= 1 && pageSize <= maxPage)) throw new UsageError(`--page-size is a whole number from 1 to ${maxPage}, not '${pageText}'`);

  return { help: false, family: family as FamilyPath, brand, filters: Object.fromEntries(filters), format, out, restart, pageSize, syncState, resyncExpired, follow };
}

/** What an incremental export cannot do: the feed has no filters, the brand has no feed, and the token may only move on once the batch is on disk. */
function checkIncremental({ family, tenant, filters, out }: { family: string; tenant: boolean; filters: readonly string[]; out: string | null }): void {
  if (tenant) throw new UsageError(`${family} has no changes feed: export it without --sync-state`);
  if (filters.length > 0) throw new UsageError(`the changes feed takes no filters: drop ${filters.map((name) => `--${name}`).join(' ')}, or export without --sync-state`);
  if (out === null) throw new UsageError('--sync-state needs --out: the token is saved only once what it covers is on disk');
}
