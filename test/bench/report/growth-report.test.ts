import { expect } from 'chai';
import { growthPlot } from '../../../bench/report/growth-plot.ts';
import { growthOf, growthTable, type GrowthInput } from '../../../bench/report/growth-report.ts';

const sample = (p50Ms: number, requestsPerSecond: number) => ({ p50Ms, requestsPerSecond });

function result(products: number, factor: number, feed = true): GrowthInput {
  return {
    scale: { products, bigBrand: products / 5 },
    cases: [
      { name: 'get-by-id', server: sample(2 * factor, 5000), floor: sample(3, 4000) },
      { name: 'first-page-big-filter', server: sample(10, 2000), floor: sample(100 * factor, 20) },
    ],
    feed: feed ? { pages: { changes: sample(40, 500) }, batches: { fullSync: { items: products / 5, seconds: products / 50_000 } } } : null,
  };
}

describe('bench growth report', () => {
  it('puts sizes in order, a case per row, n/a where a size did not run it', () => {
    const growth = growthOf([result(5_000_000, 5), result(1_000_000, 1, false)]);
    expect(growth.sizes).to.deep.equal([1_000_000, 5_000_000]);
    const get = growth.rows.find((row) => row.label === 'get by id')!;
    expect(get.server.map((s) => s?.p50Ms)).to.deep.equal([2, 10]);
    const small = growth.rows.find((row) => row.label === 'first page, small brand')!;
    expect(small.server).to.deep.equal([null, null]);
    const changes = growth.rows.find((row) => row.label.startsWith('changes page'))!;
    expect(changes.server.map((s) => s?.p50Ms ?? null)).to.deep.equal([null, 40]);
    expect(changes.floor).to.equal(null);
    expect(growth.exports).to.deep.equal([null, { records: 1_000_000, seconds: 100 }]);
  });

  it('writes a Markdown table with a column per size', () => {
    const table = growthTable(growthOf([result(1_000_000, 1), result(10_000_000, 10)]));
    const lines = table.split('\n');
    expect(lines[0]).to.equal('| case | 1,000,000 products | 10,000,000 products |');
    expect(lines).to.include('| get by id (server) | 2.0 ms, 5,000/s | 20.0 ms, 5,000/s |');
    expect(lines).to.include('| first page, big brand, filtered (floor) | 100.0 ms, 20/s | 1000.0 ms, 20/s |');
    expect(lines.at(-1)).to.equal('| export: full sync of the big brand | 200,000 in 20.0 s, 10,000/s | 2,000,000 in 200.0 s, 10,000/s |');
  });

  it('plots a line per measured series, log scales, the floor dashed', () => {
    const svg = growthPlot(growthOf([result(1_000_000, 1), result(5_000_000, 5), result(10_000_000, 10)]));
    expect(svg).to.match(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // get, its floor, the big first page, its floor, the changes page, the export: the small first page and deep page were not measured.
    expect(svg.match(/<polyline /g)).to.have.length(6);
    expect(svg.match(/stroke-dasharray="6 4"\/>/g)!.length).to.be.greaterThan(0);
    for (const label of ['1M', '5M', '10M', '1 ms', '1000 ms', 'export, ms per 1,000 records']) expect(svg, label).to.contain(`>${label}<`);
  });
});
