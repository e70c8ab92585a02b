import { expect } from 'chai';
import { intervalFor, parseSoakArgs, SoakArgsError } from '../../../tools/soak/soak-args.ts';
import { HEAP_RULE, judgeFlatness, RSS_RULE } from '../../../tools/soak/soak-flatness.ts';
import { metricValue } from '../../../tools/soak/soak-server.ts';
import { percentileOfSorted } from '../../../tools/shared/percentile.ts';
import { median, percentiles, serverErrors } from '../../../tools/soak/soak-stats.ts';
import { decideVerdict, type VerdictInput } from '../../../tools/soak/soak-verdict.ts';

/** The soak's pure parts: percentiles, the flatness rule, the verdict and its options (the mix: test/tools/soak/soak-mix.test.ts). */

const MB = 1024 * 1024;
const steady = (n: number, bytes: number): number[] => Array.from({ length: n }, (_, i) => bytes + ((i % 3) - 1) * MB);

describe('tools/soak/soak-stats.ts', () => {
  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentileOfSorted(values, 50)).to.equal(50);
    expect(percentileOfSorted(values, 95)).to.equal(95);
    expect(percentileOfSorted(values, 99)).to.equal(99);
    expect(percentileOfSorted(values, 100)).to.equal(100);
    expect(percentileOfSorted([7], 99)).to.equal(7);
    expect(percentileOfSorted([], 50)).to.equal(null);
    expect(() => percentileOfSorted([1], 101)).to.throw(RangeError);
  });

  it('sorts numerically before taking percentiles (not as strings)', () => {
    const p = percentiles([100, 9, 20, 3, 1000]);
    expect(p).to.deep.equal({ count: 5, p50: 20, p95: 1000, p99: 1000, max: 1000 });
    expect(percentiles([])).to.deep.include({ count: 0, p50: null, max: null });
  });

  it('takes medians and counts 5xx', () => {
    expect(median([5, 1, 3])).to.equal(3);
    expect(median([4, 1, 3, 2])).to.equal(2.5);
    expect(median([])).to.equal(null);
    expect(serverErrors({ '200': 10, '404': 2, '500': 1, '503': 2 })).to.equal(3);
    expect(serverErrors({ '200': 10, '499': 1 })).to.equal(0);
  });
});

describe('tools/soak/soak-flatness.ts', () => {
  it('calls a sawtooth around a steady level flat', () => {
    const result = judgeFlatness(steady(60, 60 * MB), HEAP_RULE);
    expect(result.state).to.equal('flat');
    expect(result.allowedBytes).to.equal(16 * MB);
  });

  it('ignores growth during the warm-up', () => {
    const samples = [...Array.from({ length: 12 }, (_, i) => 20 * MB + i * 4 * MB), ...steady(48, 70 * MB)];
    expect(judgeFlatness(samples, HEAP_RULE).state).to.equal('flat');
  });

  it('calls a steady climb growing', () => {
    const samples = Array.from({ length: 60 }, (_, i) => 50 * MB + i * 2 * MB);
    const result = judgeFlatness(samples, HEAP_RULE);
    expect(result.state).to.equal('growing');
    expect(result.growthBytes!).to.be.greaterThan(result.allowedBytes!);
  });

  it('allows the larger of the relative and absolute bounds', () => {
    // 400 MB heap: 20% is 80 MB, more than 16 MB; a 60 MB step passes, a 100 MB one does not.
    const step = (by: number): number[] => [...Array(20).fill(400 * MB), ...Array(20).fill(400 * MB), ...Array(20).fill(400 * MB + by)];
    expect(judgeFlatness(step(60 * MB), HEAP_RULE).state).to.equal('flat');
    expect(judgeFlatness(step(100 * MB), HEAP_RULE).state).to.equal('growing');
  });

  it('judges RSS more loosely than the heap', () => {
    const samples = [...Array(20).fill(200 * MB), ...Array(20).fill(200 * MB), ...Array(20).fill(250 * MB)];
    expect(judgeFlatness(samples, HEAP_RULE).state).to.equal('growing');
    expect(judgeFlatness(samples, RSS_RULE).state).to.equal('flat');
  });

  it('says inconclusive with too few samples', () => {
    expect(judgeFlatness([MB, 2 * MB, 100 * MB], HEAP_RULE)).to.deep.include({ state: 'inconclusive', samples: 3 });
    expect(judgeFlatness([], HEAP_RULE)).to.deep.include({ state: 'inconclusive', samples: 0 });
  });
});

describe('tools/soak/soak-verdict.ts', () => {
  const flat = judgeFlatness(steady(30, 50 * MB), HEAP_RULE);
  const base: VerdictInput = { statuses: { '200': 100, '304': 20, '404': 2 }, requestErrors: 0, unexpected: 0, skipped: 0, heap: flat, rss: flat };

  it('passes a clean run', () => {
    expect(decideVerdict(base)).to.deep.equal({ pass: true, reasons: [], notes: [] });
  });

  it('fails on a 5xx, an error, an unexpected status, growth, no answers or no memory samples', () => {
    const growing = judgeFlatness(Array.from({ length: 60 }, (_, i) => 50 * MB + i * 2 * MB), HEAP_RULE);
    const cases: [string, Partial<VerdictInput>, RegExp][] = [
      ['5xx', { statuses: { '200': 100, '500': 1 } }, /1 answers were 5xx/],
      ['503', { statuses: { '503': 3 } }, /3 answers were 5xx/],
      ['errors', { requestErrors: 2 }, /2 requests got no answer/],
      ['unexpected', { unexpected: 4 }, /4 answers had another status/],
      ['heap', { heap: growing }, /heap used is not flat/],
      ['rss', { rss: growing }, /RSS is not flat/],
      ['nothing', { statuses: {} }, /no request was answered/],
      ['unmeasured', { heap: judgeFlatness([], HEAP_RULE) }, /no heap used samples/],
    ];
    for (const [name, change, reason] of cases) {
      const verdict = decideVerdict({ ...base, ...change });
      expect(verdict.pass, name).to.equal(false);
      expect(verdict.reasons.join('\n'), name).to.match(reason);
    }
  });

  it('does not judge memory that grew while the server fell behind the rate: a note, not a fail', () => {
    const growing = judgeFlatness(Array.from({ length: 60 }, (_, i) => 50 * MB + i * 2 * MB), HEAP_RULE);
    const behind = decideVerdict({ ...base, skipped: 61, heap: growing });
    expect(behind.pass).to.equal(true);
    expect(behind.notes.join('\n')).to.match(/heap used grew while the server fell behind the rate/);
    // Held to the rate, the same growth fails.
    expect(decideVerdict({ ...base, heap: growing }).pass).to.equal(false);
  });

  it('notes skipped sends and an inconclusive judgement without failing', () => {
    const verdict = decideVerdict({ ...base, skipped: 5, rss: judgeFlatness([MB, MB], RSS_RULE) });
    expect(verdict.pass).to.equal(true);
    expect(verdict.notes).to.have.length(2);
  });
});

describe('tools/soak/soak-args.ts', () => {
  it('has the documented defaults', () => {
    const options = parseSoakArgs([]);
    expect(options).to.deep.equal({ duration: 180, rate: 200, connections: 16, interval: null, json: null, faults: false, report: null });
    expect(parseSoakArgs(['--faults', '--duration', '90', '--report', 'r.md'])).to.deep.include({ faults: true, duration: 90, report: 'r.md' });
    expect(intervalFor(options)).to.equal(10);
    expect(intervalFor(parseSoakArgs(['--duration', '8']))).to.equal(2);
  });

  it('refuses what is not a bounded whole number, and unknown options', () => {
    for (const args of [['--rate', '0'], ['--duration', '1e3'], ['--connections', '-1'], ['--duration', '99999'], ['--nope']]) {
      expect(() => parseSoakArgs(args), args.join(' ')).to.throw(SoakArgsError);
    }
  });
});

describe('tools/soak/soak-server.ts metricValue', () => {
  it('reads an unlabelled sample by exact name', () => {
    const text = '# HELP x\nbcat_nodejs_heap_size_used_bytes_extra 1\nbcat_nodejs_heap_size_used_bytes 123456\nbcat_process_resident_memory_bytes 9.5e7\n';
    expect(metricValue(text, 'bcat_nodejs_heap_size_used_bytes')).to.equal(123456);
    expect(metricValue(text, 'bcat_process_resident_memory_bytes')).to.equal(95_000_000);
    expect(metricValue(text, 'bcat_missing')).to.equal(null);
  });
});
