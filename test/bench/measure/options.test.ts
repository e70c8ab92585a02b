import { expect } from 'chai';
import { DEFAULT_ADMIN_URL, DEFAULT_REDIS_URL, defaultOutPath, jsonPathOf, parseBenchArgs, UsageError } from '../../../bench/measure/options.ts';
import { CASE_NAMES } from '../../../bench/measure/cases.ts';
import { FEED_CASE_NAMES } from '../../../bench/measure/feed-cases.ts';
import { WRITE_LOAD_NAMES } from '../../../bench/measure/write-loads.ts';
import { COMPRESSION_CASE_NAMES } from '../../../bench/measure/compression-cases.ts';

describe('parseBenchArgs', () => {
  it('defaults to a million products over 200 brands, 10 s a case, 32 connections, every case', () => {
    const options = parseBenchArgs({ args: [], env: {} });
    expect(options).to.deep.equal({
      scale: { products: 1_000_000, brands: 200, bigBrand: 200_000 },
      durationSeconds: 10,
      warmupSeconds: 2,
      connections: 32,
      smoke: null,
      cases: [...CASE_NAMES],
      feed: [...FEED_CASE_NAMES],
      writeLoads: [...WRITE_LOAD_NAMES],
      compression: [...COMPRESSION_CASE_NAMES],
      loadConnections: [2, 32, 256],
      keepData: false,
      adminUrl: DEFAULT_ADMIN_URL,
      redisUrl: DEFAULT_REDIS_URL,
      out: null,
    });
  });

  it('scales the big brand with --products unless given, and reads the rest of the options and settings', () => {
    const options = parseBenchArgs({
      args: ['--products', '100000', '--duration', '1', '--connections', '4', '--cases', 'search, include', '--keep-data', '--out', 'x.md'],
      env: { BENCH_DATABASE_URL: 'postgres://u@h/db', REDIS_URL: '' },
    });
    expect(options.scale).to.deep.equal({ products: 100_000, brands: 200, bigBrand: 20_000 });
    expect(options).to.deep.include({ durationSeconds: 1, warmupSeconds: 1, connections: 4, keepData: true, adminUrl: 'postgres://u@h/db', redisUrl: null, out: 'x.md' });
    expect(options.cases).to.deep.equal(['search', 'include']);
    expect(options.feed).to.deep.equal([]);
    expect(options.writeLoads).to.deep.equal([]);
    expect(parseBenchArgs({ args: ['--load-connections', '1, 8'], env: {} }).loadConnections).to.deep.equal([1, 8]);
    expect(parseBenchArgs({ args: ['--cases', 'sync-batches,writes-other-brands'], env: {} }))
      .to.deep.include({ cases: [], feed: ['sync-batches'], writeLoads: ['writes-other-brands'], compression: [] });
    expect(parseBenchArgs({ args: ['--cases', 'compression'], env: {} })).to.deep.include({ cases: [], feed: [], writeLoads: [], compression: ['compression'] });
    expect(parseBenchArgs({ args: ['--big-brand', '5000', '--products', '10000'], env: {} }).scale.bigBrand).to.equal(5000);
    expect(parseBenchArgs({ args: ['--warmup', '0'], env: {} }).warmupSeconds).to.equal(0);
    expect(parseBenchArgs({ args: ['--smoke'], env: {} }).smoke).to.deep.equal({ requests: 200 });
  });

  it('refuses bad numbers, scales, cases and unknown options with a usage error', () => {
    for (const args of [['--products', '1e6'], ['--duration', '0'], ['--products', '100', '--big-brand', '100'], ['--cases', 'nope'], ['--cases', ','], ['--load-connections', '2,x'], ['--smoke', '1'], ['--fast']]) {
      expect(() => parseBenchArgs({ args, env: {} }), args.join(' ')).to.throw(UsageError);
    }
  });
});

describe('defaultOutPath', () => {
  it('names the result by scale and minute under bench/results, with the JSON beside it', () => {
    const path = defaultOutPath({ scale: { products: 100_000, brands: 200, bigBrand: 20_000 }, date: new Date('2026-11-21T08:05:09Z') });
    expect(path).to.match(/\/bench\/results\/p100000-b200-g20000-2026-11-21T08-05\.md$/);
    expect(jsonPathOf(path)).to.match(/-2026-11-21T08-05\.json$/);
    expect(jsonPathOf('out')).to.equal('out.json');
  });
});
