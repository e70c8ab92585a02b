import { request as httpRequest } from 'node:http';
import pg from 'pg';
import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import {
  ASKED_CODINGS, COMPRESSION_REQUESTS, COMPRESSION_REQUEST_TITLES, WEIGHED_PATHS, type AskedCoding, type CompressionRequest,
} from './compression-cases.ts';
import type { CaseStage } from './measure-cases.ts';
import { walkPaths } from './measure-feed-pages.ts';
import { combine, runLoad, warmUp, type LoadTarget, type Measurement, type RunSample } from './measure.ts';
import { waitUntilIdle } from './wait-idle.ts';

/** One request in one coding: what a response weighs, what it costs. */
export interface CodingRun {
  readonly coding: AskedCoding;
  /** Mean body bytes per response on the wire (Content-Length), over the weighed paths. */
  readonly bodyBytes: number;
  /** How many of the weighed responses came in the coding asked for (small bodies are sent as they are). */
  readonly encodedShare: number;
  readonly measurement: Measurement;
}

export interface CompressionRow {
  readonly request: CompressionRequest;
  readonly title: string;
  readonly runs: readonly CodingRun[];
}

const acceptEncoding = (coding: AskedCoding): Record<string, string> => (coding === 'identity' ? {} : { 'Accept-Encoding': coding });

/** The body bytes and the coding of one response, read raw (fetch would decode it). */
function weigh({ origin, path, headers }: { origin: string; path: string; headers: Record<string, string> }): Promise<{ bytes: number; coding: string }> {
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => { bytes += chunk.length; });
      res.on('end', () => {
        if (res.statusCode !== 200) reject(new Error(`GET ${path} answered ${res.statusCode}`));
        else resolve({ bytes, coding: String(res.headers['content-encoding'] ?? 'identity') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function weighAll({ target, paths, coding }: { target: LoadTarget; paths: readonly string[]; coding: AskedCoding }): Promise<{ bodyBytes: number; encodedShare: number }> {
  const weighed = [];
  for (const path of paths.slice(0, WEIGHED_PATHS)) weighed.push(await weigh({ origin: target.origin, path, headers: { ...target.headers } }));
  return {
    bodyBytes: weighed.reduce((sum, w) => sum + w.bytes, 0) / weighed.length,
    encodedShare: weighed.filter((w) => w.coding === coding).length / weighed.length,
  };
}

/**
 * One request's paths in every coding: weighed once each, then loaded in
 * mirrored halves (identity, gzip, br, br, gzip, identity), so that load
 * drifting over the run weighs alike on every coding.
 */
async function measureRequest({ stage, paths, monitor }: { stage: CaseStage; paths: readonly string[]; monitor: pg.Client }): Promise<CodingRun[]> {
  const { options, services } = stage;
  const targetOf = (coding: AskedCoding): LoadTarget => ({
    origin: services.server.origin, pid: services.server.pid, paths, headers: { Authorization: `Bearer ${services.key}`, ...acceptEncoding(coding) },
  });
  const firstHalf = Math.max(1, Math.ceil(options.durationSeconds / 2));
  const secondHalf = options.durationSeconds - firstHalf;
  const order = [...ASKED_CODINGS, ...(secondHalf > 0 ? [...ASKED_CODINGS].reverse() : [])];
  const samples = new Map<AskedCoding, RunSample[]>(ASKED_CODINGS.map((coding) => [coding, []]));
  for (const [index, coding] of order.entries()) {
    await waitUntilIdle({ client: monitor });
    const target = targetOf(coding);
    if (samples.get(coding)!.length === 0) await warmUp({ target, connections: options.connections, seconds: options.warmupSeconds, cap: options.smoke });
    samples.get(coding)!.push(await runLoad({ target, connections: options.connections, seconds: index < ASKED_CODINGS.length ? firstHalf : secondHalf, cap: options.smoke }));
  }
  const runs: CodingRun[] = [];
  for (const coding of ASKED_CODINGS) runs.push({ coding, ...(await weighAll({ target: targetOf(coding), paths, coding })), measurement: combine(samples.get(coding)!) });
  return runs;
}

/**
 * The compression case: a list page of 100 and a get by id, each asked
 * without compression, in gzip and in Brotli, on the server alone: the
 * bytes of a body on the wire and the server's CPU per request.
 */
export async function measureCompression(stage: CaseStage): Promise<CompressionRow[]> {
  const { services, fixtures, log } = stage;
  if (stage.options.compression.length === 0) return [];
  const big = `${API_BASE_PATH}/brands/${fixtures.big.slug}/products`;
  const pathsOf: Record<CompressionRequest, () => Promise<readonly string[]>> = {
    'list-page-100': () => walkPaths({ target: { origin: services.server.origin, key: services.key }, path: big, pages: 20 }),
    'get-by-id': async () => fixtures.productIds.map((id) => `${big}/${id}`),
  };
  const monitor = new pg.Client({ connectionString: stage.url, application_name: 'bench-compression' });
  await monitor.connect();
  try {
    const rows: CompressionRow[] = [];
    for (const request of COMPRESSION_REQUESTS) {
      stage.checkpoint();
      const runs = await measureRequest({ stage, paths: await pathsOf[request](), monitor });
      log(`compression, ${request}: ${runs.map((r) => `${r.coding} ${Math.round(r.bodyBytes)} B, ${r.measurement.cpuMsPerRequest?.toFixed(3) ?? 'n/a'} ms CPU`).join('; ')}`);
      rows.push({ request, title: COMPRESSION_REQUEST_TITLES[request], runs });
    }
    return rows;
  } finally {
    await monitor.end();
  }
}
