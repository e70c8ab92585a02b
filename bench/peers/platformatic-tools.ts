/**
 * What `npm run bench:platformatic` runs Platformatic DB with, installed once
 * into a cache folder outside the repository (`BENCH_TOOLS_DIR`): Platformatic
 * DB pulls in some 480 packages, too many to weigh on the project's own
 * install for a comparison run now and then.
 */
import { spawn } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Log } from '../data/load-data.ts';

export const DEFAULT_TOOLS_DIR = '/tmp/bcat-bench-tools';
/** The major version issue 17 compares with. */
export const PLATFORMATIC_SPEC = '@platformatic/db@3';
/**
 * Platformatic DB 3 needs Node 22.19 or later (it imports `glob` from
 * `node:fs/promises`). On an older Node the comparison runs every side on
 * Node 24 from the npm registry (the `node` package ships the binary), the
 * line the Dockerfile runs in production: all three on one Node, so the Node
 * is not what the comparison measures.
 */
const NODE_SPEC = 'node@24';
const PLATFORMATIC_NODE = [22, 19] as const;

/** Where Platformatic DB's entry is, and the Node every side runs on. */
export interface BenchTools {
  /** `@platformatic/db`'s main module. */
  readonly platformaticEntry: string;
  readonly platformaticVersion: string;
  /** The Node binary the server, the floor and Platformatic DB all run on. */
  readonly node: string;
  readonly nodeVersion: string;
}

/** Whether Platformatic DB 3 runs on this Node version (`22.19.0` and later). */
export function nodeRunsPlatformatic(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > PLATFORMATIC_NODE[0] || (major === PLATFORMATIC_NODE[0] && minor >= PLATFORMATIC_NODE[1]);
}

async function packageVersion(dir: string, name: string): Promise<string | null> {
  try {
    return (JSON.parse(await readFile(join(dir, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return null;
  }
}

const exists = (path: string): Promise<boolean> => access(path).then(() => true, () => false);

/**
 * `npm install --prefix <dir> <spec>`, its output on stderr (stdout is the
 * table's). `scripts: false` skips install scripts: Platformatic DB's are
 * better-sqlite3's (compiled from source here, two minutes of CPU, for
 * SQLite, which the comparison does not use) and protobufjs's (telemetry);
 * the `node` package needs its own, which installs the binary's package.
 */
async function npmInstall({ dir, spec, scripts, signal }: { dir: string; spec: string; scripts: boolean; signal?: AbortSignal | undefined }): Promise<void> {
  const child = spawn('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', ...(scripts ? [] : ['--ignore-scripts']), spec], {
    stdio: ['ignore', process.stderr, process.stderr],
    ...(signal ? { signal } : {}),
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`npm install --prefix ${dir} ${spec} failed (exit ${String(code)})`);
}

/** The version a Node binary reports. */
async function nodeVersionOf(node: string): Promise<string> {
  const child = spawn(node, ['-p', 'process.versions.node'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`${node} -p process.versions.node failed (exit ${String(code)})`);
  return text.trim();
}

/**
 * Platformatic DB 3 (and Node 24 when this Node is too old for it) from the
 * tools folder, installed there first when missing: the next run finds them
 * and installs nothing.
 */
export async function ensureTools({ dir, log, signal }: { dir: string; log: Log; signal?: AbortSignal }): Promise<BenchTools> {
  const ownNode = nodeRunsPlatformatic(process.versions.node);
  const toolsNode = join(dir, 'node_modules', 'node', 'bin', 'node');
  if (!ownNode && !(await exists(toolsNode))) {
    log(`installing ${NODE_SPEC} into ${dir} (once): Platformatic DB 3 needs Node ${PLATFORMATIC_NODE.join('.')} or later, this is ${process.versions.node}`);
    await npmInstall({ dir, spec: NODE_SPEC, scripts: true, signal });
  }
  if (!(await packageVersion(dir, '@platformatic/db'))?.startsWith('3.')) {
    log(`installing ${PLATFORMATIC_SPEC} into ${dir} (once; under a minute)`);
    await npmInstall({ dir, spec: PLATFORMATIC_SPEC, scripts: false, signal });
  }
  const platformaticVersion = await packageVersion(dir, '@platformatic/db');
  if (!platformaticVersion?.startsWith('3.')) throw new Error(`${dir} has no @platformatic/db 3 after the install (found ${String(platformaticVersion)})`);
  const node = ownNode ? process.execPath : toolsNode;
  const nodeVersion = ownNode ? process.versions.node : await nodeVersionOf(toolsNode);
  if (!nodeRunsPlatformatic(nodeVersion)) throw new Error(`${node} is Node ${nodeVersion}; Platformatic DB 3 needs ${PLATFORMATIC_NODE.join('.')} or later`);
  const manifest = JSON.parse(await readFile(join(dir, 'node_modules', '@platformatic', 'db', 'package.json'), 'utf8')) as { main?: string };
  return { platformaticEntry: join(dir, 'node_modules', '@platformatic', 'db', manifest.main ?? 'index.js'), platformaticVersion, node, nodeVersion };
}
