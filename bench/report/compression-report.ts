import type { CompressionRow } from '../measure/measure-compression.ts';
import { milliseconds, thousands } from './format.ts';

const share = (a: number | null, b: number | null): string => (a === null || b === null || b === 0 ? 'n/a' : `${(a / b).toFixed(2)}×`);

/** Response compression's part of the report, as Markdown lines; none when the case did not run. */
export function renderCompression(rows: readonly CompressionRow[]): string[] {
  if (rows.length === 0) return [];
  const lines = [
    '### Response compression: bytes and server CPU per request, without compression, in gzip and in Brotli', '',
    'Each request asked without `Accept-Encoding`, with `gzip` and with `br`, in mirrored halves; body bytes are the mean `Content-Length` of the first 20 paths in each coding.', '',
    '| request | coding | body bytes | vs identity | encoded | req/s | p50 ms | errors | CPU ms/req | CPU vs identity |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const row of rows) {
    const identity = row.runs.find((run) => run.coding === 'identity');
    for (const [index, run] of row.runs.entries()) {
      const m = run.measurement;
      lines.push(`| ${index === 0 ? row.title : ''} | ${run.coding} | ${thousands(run.bodyBytes)} | ${share(run.bodyBytes, identity?.bodyBytes ?? null)} | ${Math.round(run.encodedShare * 100)} % | ${thousands(m.requestsPerSecond)} | ${milliseconds(m.p50Ms)} | ${m.errors + m.non2xx} | ${m.cpuMsPerRequest === null ? 'n/a' : m.cpuMsPerRequest.toFixed(3)} | ${share(m.cpuMsPerRequest, identity?.measurement.cpuMsPerRequest ?? null)} |`);
    }
  }
  lines.push('');
  return lines;
}
