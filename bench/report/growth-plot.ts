import type { Growth } from './growth-report.ts';

const WIDTH = 800;
const HEIGHT = 420;
const MARGIN = { left: 70, right: 290, top: 40, bottom: 50 };
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#7f7f7f'];

interface Series {
  readonly label: string;
  /** A case and its floor share a colour; the floor's line is dashed. */
  readonly color: string;
  readonly dashed: boolean;
  readonly points: readonly (readonly [number, number])[];
}

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** The plotted lines: each case's p50 on the server (solid) and the floor (dashed), and the export's ms per 1,000 records. */
function seriesOf(growth: Growth): Series[] {
  const series: Series[] = [];
  const points = (values: readonly (number | null)[]): [number, number][] =>
    values.flatMap((value, i) => (value === null || value <= 0 ? [] : [[growth.sizes[i]!, value] as [number, number]]));
  growth.rows.forEach((row, i) => {
    const color = COLORS[i % COLORS.length]!;
    series.push({ label: row.label, color, dashed: false, points: points(row.server.map((s) => s?.p50Ms ?? null)) });
    if (row.floor) series.push({ label: `${row.label}, floor`, color, dashed: true, points: points(row.floor.map((s) => s?.p50Ms ?? null)) });
  });
  const exportColor = COLORS[growth.rows.length % COLORS.length]!;
  series.push({ label: 'export, ms per 1,000 records', color: exportColor, dashed: false, points: points(growth.exports.map((e) => (e ? (1000 * e.seconds * 1000) / e.records : null))) });
  return series.filter((s) => s.points.length > 0);
}

/**
 * The growth plot: p50 latency (log scale, ms) against products (log
 * scale), a line per case, the floor's dashed. Log on both axes, so a cost
 * that grows with the data is a rising line and a flat one stays flat.
 */
export function growthPlot(growth: Growth): string {
  const series = seriesOf(growth);
  const xs = growth.sizes;
  const ys = series.flatMap((s) => s.points.map(([, y]) => y));
  const [x0, x1] = [Math.log10(Math.min(...xs)), Math.log10(Math.max(...xs))];
  const [y0, y1] = [Math.floor(Math.log10(Math.min(...ys))), Math.ceil(Math.log10(Math.max(...ys)))];
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const px = (x: number): number => MARGIN.left + (x1 === x0 ? plotW / 2 : ((Math.log10(x) - x0) / (x1 - x0)) * plotW);
  const py = (y: number): number => MARGIN.top + plotH - ((Math.log10(y) - y0) / Math.max(1, y1 - y0)) * plotH;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${MARGIN.left}" y="22" font-size="14">p50 latency as the data grows (log scales)</text>`,
  ];
  for (let e = y0; e <= y1; e++) {
    const y = py(10 ** e);
    out.push(`<line x1="${MARGIN.left}" y1="${y}" x2="${MARGIN.left + plotW}" y2="${y}" stroke="#ddd"/>`, `<text x="${MARGIN.left - 8}" y="${y + 4}" text-anchor="end">${10 ** e} ms</text>`);
  }
  for (const x of xs) {
    out.push(`<line x1="${px(x)}" y1="${MARGIN.top}" x2="${px(x)}" y2="${MARGIN.top + plotH}" stroke="#ddd"/>`, `<text x="${px(x)}" y="${MARGIN.top + plotH + 18}" text-anchor="middle">${(x / 1e6).toLocaleString('en-US')}M</text>`);
  }
  out.push(`<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 10}" text-anchor="middle">products</text>`);
  series.forEach((s, i) => {
    const { color } = s;
    const path = s.points.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ');
    out.push(`<polyline points="${path}" fill="none" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    for (const [x, y] of s.points) out.push(`<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3" fill="${color}"/>`);
    const ly = MARGIN.top + 10 + i * 18;
    out.push(`<line x1="${WIDTH - MARGIN.right + 15}" y1="${ly}" x2="${WIDTH - MARGIN.right + 40}" y2="${ly}" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`, `<text x="${WIDTH - MARGIN.right + 46}" y="${ly + 4}">${escape(s.label)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
