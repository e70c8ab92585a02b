import { expect } from 'chai';
import { FAMILIES } from '../../../client/src/index.ts';
import { csvCell, csvLine } from '../../../tools/export/csv.ts';
import { EXPORT_OPTION_NAMES, parseExportArgs } from '../../../tools/export/export-args.ts';
import { usageError } from './usage-error.ts';
import { identityDifference } from '../../../tools/export/export-state.ts';
import { createProgress, progressBar } from '../../../tools/export/progress.ts';

/** The export command's pieces that need no server: arguments, CSV cells, progress lines, state identity. */

describe('export arguments (tools/export/export-args.ts)', () => {
  it('reads the family, the options, and filters as --name value or --name=value, in order', () => {
    expect(parseExportArgs(['products', '--brand', 'acme', '--status=approved', '--search', 'linen tee', '--format', 'csv', '--out', 'p.csv', '--restart', '--page-size', '50'])).to.deep.equal({
      help: false,
      family: 'products',
      brand: 'acme',
      filters: { status: 'approved', search: 'linen tee' },
      format: 'csv',
      out: 'p.csv',
      restart: true,
      pageSize: 50,
      syncState: null,
      resyncExpired: false,
      follow: false,
    });
  });

  it('defaults to ndjson on stdout, 100 records a page', () => {
    expect(parseExportArgs(['--brand=acme', 'carton-sizes'])).to.deep.include({ format: 'ndjson', out: null, restart: false, pageSize: 100, filters: {} });
  });

  it('keeps a value that starts with -- when given with =', () => {
    expect(parseExportArgs(['products', '--brand', 'acme', '--search=--sale', '--code='])).to.deep.include({ filters: { search: '--sale', code: '' } });
  });

  it('answers --help and -h with the usage', () => {
    expect(parseExportArgs(['--help'])).to.deep.equal({ help: true });
    expect(parseExportArgs(['-h'])).to.deep.equal({ help: true });
  });

  it('names what is wrong, with a suggestion where one is close', () => {
    expect(usageError(['prodcts', '--brand', 'acme'])).to.equal("unknown family 'prodcts' (did you mean 'products'?)");
    expect(usageError(['products', '--brand', 'acme', '--stauts', 'x'])).to.contain("products has no filter 'stauts' (did you mean 'status'?); its filters: code, status, category, search");
    expect(usageError(['products', '--brand', 'acme', '--fromat', 'csv'])).to.contain("(did you mean 'format'?)");
    expect(usageError(['brands', '--brand', 'acme', '--name', 'x'])).to.contain('it has no filters');
    expect(usageError(['products'])).to.contain('--brand <slug> is required');
    expect(usageError(['--brand', 'acme'])).to.contain('name the family');
    expect(usageError(['products', 'skus', '--brand', 'acme'])).to.contain('one family at a time');
    expect(usageError(['products', '--brand', 'acme', '--status'])).to.contain('--status needs a value');
    expect(usageError(['products', '--brand', 'acme', '--status', 'a', '--status', 'b'])).to.contain('--status is given twice');
    expect(usageError(['products', '--brand', 'acme', '--format', 'xml'])).to.contain('ndjson or csv');
    expect(usageError(['products', '--brand', 'acme', '--restart'])).to.contain('--restart needs --out');
    expect(usageError(['products', '--brand', 'acme', '--restart=yes', '--out', 'f'])).to.contain('--restart takes no value');
    for (const size of ['0', '101', '1e2', 'ten']) expect(usageError(['products', '--brand', 'acme', '--page-size', size])).to.contain('--page-size');
  });

  it('no family has a filter named like an option of the command, so every filter can be given', () => {
    for (const info of Object.values(FAMILIES)) {
      expect(info.filters.filter((name) => EXPORT_OPTION_NAMES.includes(name)), info.path).to.deep.equal([]);
    }
  });
});

describe('CSV cells (tools/export/csv.ts)', () => {
  it('quotes a field with a comma, a quote, CR or LF, doubling the quotes', () => {
    expect(csvCell('plain text')).to.equal('plain text');
    expect(csvCell('a,b')).to.equal('"a,b"');
    expect(csvCell('say "hi"')).to.equal('"say ""hi"""');
    expect(csvCell('two\nlines')).to.equal('"two\nlines"');
    expect(csvCell('cr\r')).to.equal('"cr\r"');
  });

  it('writes null as an empty field, an empty string as "", numbers, booleans and JSON as text', () => {
    expect(csvCell(null)).to.equal('');
    expect(csvCell('')).to.equal('""');
    expect(csvCell(42)).to.equal('42');
    expect(csvCell(false)).to.equal('false');
    expect(csvCell({ a: [1, 'b'] })).to.equal('"{""a"":[1,""b""]}"');
    expect(csvCell([])).to.equal('[]');
    expect(csvLine(['a', null, 'b,c'])).to.equal('a,,"b,c"\r\n');
  });
});

describe('export progress (tools/export/progress.ts)', () => {
  const capture = (tty: boolean): { text: () => string; progress: ReturnType<typeof createProgress> } => {
    let text = '';
    return { text: () => text, progress: createProgress({ write: (chunk) => (text += chunk), tty, label: 'skus' }) };
  };

  it('on a terminal, redraws one line with a bar, and ends it when done', () => {
    const { text, progress } = capture(true);
    progress.page({ records: 100, totalItems: 400 });
    progress.page({ records: 200, totalItems: 400 });
    progress.finished({ records: 400, totalItems: 400 });
    expect(text()).to.equal([
      `\rskus ${progressBar({ records: 100, totalItems: 400 })}\x1b[K`,
      `\rskus ${progressBar({ records: 200, totalItems: 400 })}\x1b[K`,
      `\rskus ${progressBar({ records: 400, totalItems: 400 })}, complete\x1b[K`,
      '\n',
    ].join(''));
    expect(progressBar({ records: 100, totalItems: 400 })).to.equal(`[${'#'.repeat(8)}${'-'.repeat(22)}] 100/400 (25%)`);
  });

  it('without a terminal, writes a plain line every 10 pages and one at the end', () => {
    const { text, progress } = capture(false);
    for (let page = 1; page <= 23; page++) progress.page({ records: page * 10, totalItems: 235 });
    progress.finished({ records: 235, totalItems: 235 });
    expect(text()).to.equal('skus: 100/235 records (42%)\nskus: 200/235 records (85%)\nskus: 235/235 records (100%), complete\n');
  });

  it('says when it resumes and when it stopped early', () => {
    const { text, progress } = capture(false);
    progress.resumed({ records: 40, statePath: 'out.ndjson.export-state.json' });
    progress.stopped({ records: 60, totalItems: 100, resumable: true });
    expect(text()).to.equal('skus: resuming after 40 records (state in out.ndjson.export-state.json)\nskus: stopped after 60/100 records; run the same command again to resume\n');
  });

  it('says why it waits: a plain line, or the terminal line until the next page', () => {
    const plain = capture(false);
    plain.progress.retrying({ delayMs: 42_000, reason: 'rate_limited' });
    expect(plain.text()).to.equal('skus: rate_limited, retrying in 42 s\n');
    const tty = capture(true);
    tty.progress.retrying({ delayMs: 500, reason: 'network' });
    expect(tty.text()).to.equal('\rskus network, retrying in 1 s\x1b[K');
  });

    it('shows an empty list as complete', () => {
    expect(progressBar({ records: 0, totalItems: 0 })).to.equal(`[${'#'.repeat(30)}] 0/0 (100%)`);
  });
});

describe('export identity (tools/export/export-state.ts)', () => {
  const base = { family: 'products', brand: 'acme', filters: { status: 'approved', code: 'A' }, format: 'ndjson' as const };

  it('is the same export whatever the order of the filters', () => {
    expect(identityDifference(base, { ...base, filters: { code: 'A', status: 'approved' } })).to.equal(null);
  });

  it('names the first difference', () => {
    expect(identityDifference(base, { ...base, brand: 'globex' })).to.equal('brand was acme, now globex');
    expect(identityDifference(base, { ...base, format: 'csv' })).to.equal('format was ndjson, now csv');
    expect(identityDifference(base, { ...base, filters: { status: 'approved' } })).to.equal('filters were --status=approved --code=A, now --status=approved');
  });
});
