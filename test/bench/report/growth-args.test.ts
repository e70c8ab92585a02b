import { expect } from 'chai';
import { parseGrowthArgs } from '../../../bench/report/growth-args.ts';

describe('parseGrowthArgs', () => {
  it('takes every argument as a result file when no plot is asked (the first one too)', () => {
    expect(parseGrowthArgs(['a.json', 'b.json', 'c.json'])).to.deep.equal({ files: ['a.json', 'b.json', 'c.json'], svgFile: null });
  });

  it('takes the file after --svg as the plot, wherever it stands', () => {
    expect(parseGrowthArgs(['a.json', '--svg', 'g.svg', 'b.json'])).to.deep.equal({ files: ['a.json', 'b.json'], svgFile: 'g.svg' });
    expect(parseGrowthArgs(['--svg', 'g.svg', 'a.json'])).to.deep.equal({ files: ['a.json'], svgFile: 'g.svg' });
  });

  it('refuses no result file, and --svg without its file', () => {
    expect(parseGrowthArgs([])).to.equal(null);
    expect(parseGrowthArgs(['--svg', 'g.svg'])).to.equal(null);
    expect(parseGrowthArgs(['a.json', '--svg'])).to.equal(null);
  });
});
