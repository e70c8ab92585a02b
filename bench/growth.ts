import { readFileSync, writeFileSync } from 'node:fs';
import { parseGrowthArgs } from './report/growth-args.ts';
import { growthPlot } from './report/growth-plot.ts';
import { growthOf, growthTable, type GrowthInput } from './report/growth-report.ts';

/**
 * `npm run bench:growth -- <result.json>... [--svg <file>]`: the growth
 * table of bench results at several sizes (one `npm run bench --out` .json
 * each), printed as Markdown, and its plot written as SVG where asked.
 */
const args = parseGrowthArgs(process.argv.slice(2));
if (!args) {
  process.stderr.write('usage: npm run bench:growth -- <result.json>... [--svg <file>]\n');
  process.exit(2);
}
const { files, svgFile } = args;
const growth = growthOf(files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as GrowthInput));
process.stdout.write(`${growthTable(growth)}\n`);
if (svgFile) {
  writeFileSync(svgFile, growthPlot(growth));
  process.stderr.write(`wrote ${svgFile}\n`);
}
