import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { builtinModules } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { SHUTDOWN_GRACE_MS } from '../../src/server/graceful-stop.ts';
import { SERVER_NODE_FLAGS } from '../../src/server/node-flags.ts';
// Neither is a dependency of the project: js-yaml comes with mocha (its config files), esbuild with tsx.
import { build } from 'esbuild';
import { load } from 'js-yaml';
import { checkServeConfig, DEFAULTS, loadConfig } from '../../src/server/config.ts';
import { describeDatabaseFree } from '../support/database-free.ts';
import { runTool } from '../support/run-tool.ts';

/**
 * The deployment files (Dockerfile, .dockerignore, compose.yaml, deploy/,
 * docs/DEPLOYMENT.md), checked without Docker: there is no engine to run them
 * on this machine. What can be checked is: that they parse, that they name
 * files, services, settings and paths that exist, that the numbers agree, and
 * the API healthcheck's command, run against a local server.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

// ---- Dockerfile ----------------------------------------------------------

interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

interface Stage {
  readonly name: string | null;
  readonly base: string;
  readonly instructions: Instruction[];
}

/** Instructions by stage: continuation lines joined, comments and blank lines dropped. */
function parseDockerfile(text: string): Stage[] {
  const lines: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    lines.push(pending + line);
    pending = '';
  }
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line)!;
    if (keyword.toUpperCase() === 'FROM') {
      const [base = '', as, name] = args.split(/\s+/).filter((word) => !word.startsWith('--'));
      stages.push({ base, name: as?.toUpperCase() === 'AS' && name ? name : null, instructions: [] });
    } else {
      expect(stages, `${keyword} before any FROM`).to.not.be.empty;
      stages.at(-1)!.instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}

interface Copy {
  readonly from: string | null;
  readonly sources: string[];
  readonly destination: string;
}

function parseCopy(args: string): Copy {
  expect(args, 'COPY in shell form').to.not.match(/^\[/);
  const words = args.split(/\s+/);
  const from = words.find((word) => word.startsWith('--from='))?.slice('--from='.length) ?? null;
  const paths = words.filter((word) => !word.startsWith('--'));
  return { from, sources: paths.slice(0, -1), destination: paths.at(-1)! };
}

const workdirOf = (stage: Stage): string => stage.instructions.filter((i) => i.keyword === 'WORKDIR').at(-1)?.args ?? '/';

/** What a stage's folder holds and the command that makes it (the build stage works on a copy of the repository). */
const PRODUCED_BY: Readonly<Record<string, RegExp>> = { dist: /\bnpm run build\b/, node_modules: /\bnpm ci\b/ };

// ---- .dockerignore ---------------------------------------------------------

/** Docker's rules for the patterns used here: from the context's root, `*` within a name, `**` across, a folder takes its contents. */
function dockerIgnore(text: string): { patterns: string[]; ignores(path: string): boolean } {
  const patterns = text.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  const escape = (part: string): string => part.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  const regexes = patterns.map((pattern) => {
    const body = pattern.replace(/^\/+|\/+$/g, '').split('**').map((part) => part.split('*').map((piece) => piece.split('?').map(escape).join('[^/]')).join('[^/]*')).join('.*');
    return new RegExp(`^${body}$`);
  });
  return {
    patterns,
    ignores(path) {
      const parts = path.split('/');
      return parts.some((_, i) => regexes.some((regex) => regex.test(parts.slice(0, i + 1).join('/'))));
    },
  };
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(folder, entry.name)) : [join(folder, entry.name)]);
}

// ---- compose.yaml ------------------------------------------------------------

interface Service {
  readonly image?: string;
  readonly build?: unknown;
  readonly command?: string[];
  readonly entrypoint?: string[];
  readonly environment?: Record<string, string>;
  readonly depends_on?: Record<string, { condition: string }>;
  readonly healthcheck?: { test: string[] };
  readonly volumes?: string[];
  readonly ports?: string[];
  readonly restart?: string;
  readonly stop_grace_period?: string;
}

interface Compose {
  readonly services: Record<string, Service>;
  readonly volumes?: Record<string, unknown>;
}

/** Compose's interpolation: `${NAME}`, `${NAME:?message}` (refuses when unset or empty), `${NAME:-default}`, `$$`. */
function interpolate(value: string, env: Readonly<Record<string, string>>): string {
  return value.replace(/\$\$|\$\{([A-Za-z_]\w*)(?:(:?[?-])([^}]*))?\}/g, (match, name: string | undefined, operator: string | undefined, argument: string | undefined) => {
    if (match === '$$') return '$';
    const found = env[name!];
    const missing = operator?.startsWith(':') ? !found : found === undefined;
    if (operator?.endsWith('?') && missing) throw new Error(`${name}: ${argument}`);
    if (operator?.endsWith('-') && missing) return argument ?? '';
    return found ?? '';
  });
}

/** Secrets as a user would set them in .env. */
const SECRETS = Object.freeze({ CURSOR_SECRET: 'c'.repeat(64), POSTGRES_PASSWORD: 'primarypw', REPLICATION_PASSWORD: 'replicapw' });

const environmentOf = (service: Service, env: Readonly<Record<string, string>> = SECRETS): Record<string, string> =>
  Object.fromEntries(Object.entries(service.environment ?? {}).map(([name, value]) => [name, interpolate(String(value), env)]));

const hostOf = (url: string): string => new URL(url).hostname;

/** Every `-c name=value` of a postgres command. */
function postgresSetting(service: Service, name: string): string | undefined {
  return (service.command ?? []).map((word) => new RegExp(`^${name}=(.+)$`).exec(word)?.[1]).find((value) => value !== undefined);
}

const seconds = (duration: string): number => {
  const [, amount, unit] = /^(\d+)(ms|s|m)$/.exec(duration) ?? [];
  expect(amount, `duration '${duration}'`).to.not.equal(undefined);
  return Number(amount) * { ms: 0.001, s: 1, m: 60 }[unit as 'ms' | 's' | 'm'];
};

/** Setting names a source file reads: `env.NAME` and `name: 'NAME'`. */
function settingsReadBy(file: string): Set<string> {
  return new Set([...read(file).matchAll(/\benv\.([A-Z][A-Z0-9_]*)|\bname: '([A-Z][A-Z0-9_]*)'/g)].map((match) => match[1] ?? match[2]!));
}

/** Setting names the server reads: src/server/config.ts, and the switch that turns traces on. */
function knownSettings(): Set<string> {
  return new Set([...settingsReadBy('src/server/config.ts'), ...settingsReadBy('src/server/tracing/start-tracing.ts')]);
}

// ---- docs/DEPLOYMENT.md --------------------------------------------------------

/** The `code` names in the first column of the table under a `## heading`. */
function firstColumnNames(markdown: string, heading: string): string[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith(`${heading}\n`));
  expect(section, `section '## ${heading}'`).to.not.equal(undefined);
  const rows = section!.split('\n').filter((line) => line.startsWith('|')).slice(2);
  expect(rows, `a table under '## ${heading}'`).to.not.be.empty;
  return rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!));
}

/** Runs a compose healthcheck's CMD on this machine, with `node` as this process's. */
function runHealthcheck(test: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [form, command, ...args] = test;
  expect(form, 'healthcheck in exec form').to.equal('CMD');
  expect(command).to.equal('node');
  return new Promise((resolve) => {
    execFile(process.execPath, args, { env, timeout: 10_000 }, (error) => resolve(error ? (typeof error.code === 'number' ? error.code : -1) : 0));
  });
}

describeDatabaseFree?.('deployment files (Dockerfile, compose.yaml, deploy/, docs/DEPLOYMENT.md)', function () {
  this.timeout(120_000);
  let stages: Stage[];
  let ignore: ReturnType<typeof dockerIgnore>;
  let compose: Compose;
  let guide: string;
  let apiNames: string[];
  const service = (name: string): Service => {
    expect(compose.services, 'compose services').to.have.property(name);
    return compose.services[name]!;
  };

  before(async () => {
    // The image runs what `npm run build` writes: build it as the Dockerfile's build stage does.
    const built = await runTool('tools/build.ts', [], { timeoutMs: 115_000 });
    expect(built.code, `npm run build:\n${built.stdout}\n${built.stderr}`).to.equal(0);
    stages = parseDockerfile(read('Dockerfile'));
    ignore = dockerIgnore(read('.dockerignore'));
    compose = load(read('compose.yaml')) as Compose;
    guide = read('docs/DEPLOYMENT.md');
    apiNames = Object.keys(compose.services ?? {}).filter((name) => /^api-\d+$/.test(name));
  });

  describe('Dockerfile', () => {
    it('builds in named stages from base images pinned to a major version', () => {
      expect(stages.length).to.be.at.least(2);
      for (const stage of stages) {
        const [, image, tag] = /^([^:@]+):([^@]+)$/.exec(stage.base) ?? [];
        expect(image, `base '${stage.base}' has a tag`).to.not.equal(undefined);
        expect(tag, `base '${stage.base}'`).to.match(/^\d+/);
      }
      for (const stage of stages.slice(0, -1)) expect(stage.name, `stage FROM ${stage.base}`).to.be.a('string');
    });

    it('copies only files of the build context that .dockerignore lets through, and outputs of earlier stages', () => {
      for (const [index, stage] of stages.entries()) {
        for (const { from, sources } of stage.instructions.filter((i) => i.keyword === 'COPY').map((i) => parseCopy(i.args))) {
          if (from === null) {
            for (const source of sources) {
              expect(existsSync(join(ROOT, source)), `COPY ${source}: in the repository`).to.equal(true);
              if (source !== '.') expect(ignore.ignores(source), `COPY ${source}: not in .dockerignore`).to.equal(false);
            }
            continue;
          }
          const origin = stages.slice(0, index).find((earlier) => earlier.name === from);
          expect(origin, `COPY --from=${from}: an earlier stage`).to.not.equal(undefined);
          for (const source of sources) {
            const path = relative(workdirOf(origin!), source);
            const producer = PRODUCED_BY[path];
            expect(producer, `COPY --from=${from} ${source}: a folder the test knows how the stage makes`).to.not.equal(undefined);
            expect(origin!.instructions.some((i) => i.keyword === 'RUN' && producer!.test(i.args)), `stage ${from} makes ${path}`).to.equal(true);
            expect(existsSync(join(ROOT, path)), `${path} exists after npm run build and npm ci`).to.equal(true);
          }
        }
      }
    });

    it('puts only production dependencies in the image', () => {
      const runtime = stages.at(-1)!;
      const copies = runtime.instructions.filter((i) => i.keyword === 'COPY').map((i) => parseCopy(i.args));
      const modules = copies.filter((copy) => copy.sources.some((source) => source.endsWith('node_modules')));
      expect(modules, 'one COPY of node_modules').to.have.length(1);
      const origin = stages.find((stage) => stage.name === modules[0]!.from)!;
      expect(origin.instructions.some((i) => i.keyword === 'RUN' && /\bnpm ci\b.*--omit=dev/.test(i.args)), `stage ${origin.name} runs npm ci --omit=dev`).to.equal(true);
    });

    it('runs as a non-root user, the built server, as ES modules, in production, on the default port', () => {
      const runtime = stages.at(-1)!.instructions;
      const users = runtime.filter((i) => i.keyword === 'USER');
      expect(users, 'a USER in the last stage').to.not.be.empty;
      expect(users.at(-1)!.args.split(':')[0]).to.not.match(/^(root|0)$/);
      expect(runtime.findIndex((i) => i === users.at(-1)), 'USER before CMD').to.be.below(runtime.findIndex((i) => i.keyword === 'CMD'));

      const cmd = runtime.filter((i) => i.keyword === 'CMD').at(-1);
      expect(cmd, 'a CMD').to.not.equal(undefined);
      // Node with the options a server runs with (src/server/node-flags.ts), then the entry alone.
      const [node, ...args] = JSON.parse(cmd!.args) as string[];
      const entry = args.at(-1);
      expect([node, args.slice(0, -1)]).to.deep.equal(['node', [...SERVER_NODE_FLAGS]]);
      expect(entry).to.match(/^dist\/.+\.js$/);
      expect(existsSync(join(ROOT, entry!)), `${entry} written by npm run build`).to.equal(true);

      // The .js files are ES modules only through package.json's "type".
      expect((JSON.parse(read('package.json')) as { type?: string }).type).to.equal('module');
      const copied = runtime.filter((i) => i.keyword === 'COPY').map((i) => parseCopy(i.args));
      expect(copied.some((copy) => copy.from === null && copy.sources.includes('package.json')), 'package.json in the last stage').to.equal(true);

      expect(runtime.some((i) => i.keyword === 'ENV' && /^NODE_ENV[= ]production$/.test(i.args)), 'ENV NODE_ENV=production').to.equal(true);
      expect(runtime.filter((i) => i.keyword === 'EXPOSE').map((i) => i.args)).to.deep.equal([String(DEFAULTS.port)]);
    });

    it('every package the built server and its commands import is a production dependency', async () => {
      const { dependencies = {} } = JSON.parse(read('package.json')) as { dependencies?: Record<string, string> };
      const entries = [
        'dist/src/server/main.js', 'dist/src/server/cluster.js',
        'dist/tools/db-migrate.js', 'dist/tools/db-seed.js', 'dist/tools/keys.js',
        // Loaded by computed paths, which the bundler cannot follow.
        ...filesUnder(join(ROOT, 'dist/resources')).map((file) => relative(ROOT, file)),
        ...filesUnder(join(ROOT, 'dist/migrations')).map((file) => relative(ROOT, file)),
      ];
      for (const entry of entries) expect(existsSync(join(ROOT, entry)), entry).to.equal(true);
      const result = await build({
        entryPoints: entries.map((entry) => join(ROOT, entry)),
        absWorkingDir: ROOT,
        bundle: true,
        packages: 'external',
        platform: 'node',
        format: 'esm',
        write: false,
        metafile: true,
        logLevel: 'silent',
        outdir: join(tmpdir(), 'bcat-deployment-imports'),
      });
      const imported = new Map<string, string>();
      for (const [file, input] of Object.entries(result.metafile.inputs)) {
        for (const { path, external } of input.imports) if (external) imported.set(path, file);
        // createRequire(...).resolve('pkg/...') finds a package's files without importing them.
        for (const match of readFileSync(join(ROOT, file), 'utf8').matchAll(/\.resolve\(\s*'([^'.][^']*)'\s*\)/g)) imported.set(match[1]!, file);
      }
      const packages = [...imported].filter(([path]) => !path.startsWith('node:') && !builtinModules.includes(path));
      expect(packages, 'imports found').to.not.be.empty;
      for (const [path, file] of packages) {
        const name = path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0]!;
        expect(dependencies, `${file} imports '${path}'`).to.have.property(name);
      }
    });
  });

  describe('.dockerignore', () => {
    it('keeps local state, secrets, installed modules and build output out of the build context', () => {
      expect(ignore.patterns.filter((pattern) => pattern.startsWith('!')), 'no exceptions (this check does not model them)').to.be.empty;
      for (const path of ['node_modules', 'dist', '.data', '.git', '.env', 'artifacts', 'bench/results', 'client/dist']) {
        expect(ignore.ignores(path), path).to.equal(true);
      }
    });

    it('lets through every file the build reads', () => {
      const inputs = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'tools/build.ts'];
      // dist/ mirrors its sources: x.js from x.ts, and the docs copied as they are.
      for (const file of filesUnder(join(ROOT, 'dist'))) {
        const path = relative(join(ROOT, 'dist'), file);
        const source = path.endsWith('.js') && existsSync(join(ROOT, path.replace(/\.js$/, '.ts'))) ? path.replace(/\.js$/, '.ts') : path;
        expect(existsSync(join(ROOT, source)), `dist/${path} from ${source}`).to.equal(true);
        inputs.push(source);
      }
      expect(inputs.length).to.be.above(100);
      for (const path of inputs) expect(ignore.ignores(path), `${path} reaches the build`).to.equal(false);
    });
  });

  describe('compose.yaml', () => {
    it('parses, and has exactly the services the guide names', () => {
      expect(compose).to.be.an('object');
      expect(compose.services).to.be.an('object');
      expect(apiNames.length, 'API services api-1, api-2, ...').to.be.at.least(2);
      const named = firstColumnNames(guide, 'What runs where');
      expect([...named].sort()).to.deep.equal(Object.keys(compose.services).sort());
    });

    it('refuses to start without the cursor secret and the passwords', () => {
      const api = service(apiNames[0]!);
      for (const secret of Object.keys(SECRETS)) {
        const without: Record<string, string> = { ...SECRETS, [secret]: '' };
        const users = Object.values(compose.services).filter((s) => Object.values(s.environment ?? {}).some((value) => String(value).includes(`\${${secret}`)));
        expect(users, `a service uses ${secret}`).to.not.be.empty;
        for (const user of users) expect(() => environmentOf(user, without), `without ${secret}`).to.throw(secret);
      }
      // Every use of a secret must refuse, not fall back to empty or a default.
      for (const match of read('compose.yaml').matchAll(/\$\{?(CURSOR_SECRET|POSTGRES_PASSWORD|REPLICATION_PASSWORD)([^}]*)/g)) {
        expect(match[2], `use of ${match[1]}`).to.match(/^:\?/);
      }
      expect(environmentOf(api).CURSOR_SECRET).to.equal(SECRETS.CURSOR_SECRET);
    });

    it('gives every API instance the same cursor secret, Redis and databases', () => {
      const [first, ...others] = apiNames.map((name) => environmentOf(service(name)));
      for (const name of ['CURSOR_SECRET', 'REDIS_URL', 'DATABASE_URL', 'DATABASE_REPLICA_URLS', 'RATE_LIMIT_POINTS', 'RATE_LIMIT_WINDOW_SECONDS', 'AUTH_FAILURE_LIMIT', 'TRUST_PROXY']) {
        for (const [i, other] of others.entries()) expect(other[name], `${name} of ${apiNames[i + 1]}`).to.equal(first![name]);
      }
      expect(first!.REDIS_URL, 'REDIS_URL (shared rate limits)').to.match(/^redis:\/\//);
    });

    it('sets on the APIs only settings the server knows, with values it accepts', () => {
      const known = knownSettings();
      expect(known).to.include.members(['DATABASE_URL', 'CURSOR_SECRET', 'PORT']);
      for (const name of apiNames) {
        const env = environmentOf(service(name));
        for (const setting of Object.keys(env)) expect(known.has(setting), `${name}: ${setting} is read by src/server/config.ts`).to.equal(true);
        const config = loadConfig(env);
        expect(() => checkServeConfig(config)).to.not.throw();
        expect(config.redisUrl, `${name}: REDIS_URL`).to.be.a('string');
        expect(config.databaseReplicaUrls.length, `${name}: replicas`).to.be.at.least(1);
        expect(config.trustProxy, `${name}: TRUST_PROXY behind the load balancer`).to.equal('lb' in compose.services);
      }
    });

    it('points the APIs and the migration at services of this file: the primary, its replicas and Redis', () => {
      const env = environmentOf(service(apiNames[0]!));
      const primary = hostOf(env.DATABASE_URL!);
      expect(service(primary).image).to.match(/^postgres:/);
      expect(service(primary).entrypoint, 'the primary runs the image entrypoint').to.equal(undefined);
      for (const url of env.DATABASE_REPLICA_URLS!.split(',')) {
        const replica = service(hostOf(url));
        expect(replica.image).to.equal(service(primary).image);
        expect(environmentOf(replica).PRIMARY_HOST, `${hostOf(url)} copies ${primary}`).to.equal(primary);
        expect(environmentOf(replica).REPLICATION_PASSWORD).to.equal(environmentOf(service(primary)).REPLICATION_PASSWORD);
      }
      expect(service(hostOf(env.REDIS_URL!)).image).to.match(/^redis:/);
      expect(environmentOf(service('migrate')).DATABASE_URL, 'migrate runs on the primary').to.equal(env.DATABASE_URL);
    });

    it('migrates once, before any API starts', () => {
      const migrate = service('migrate');
      const [node, script] = migrate.command ?? [];
      expect(node).to.equal('node');
      expect(script).to.match(/db-migrate\.js$/);
      expect(existsSync(join(ROOT, script!)), `${script} written by npm run build`).to.equal(true);
      expect(migrate.restart).to.equal('no');
      expect(migrate.image).to.equal(service(apiNames[0]!).image);
      for (const name of apiNames) expect(service(name).depends_on?.migrate?.condition, name).to.equal('service_completed_successfully');
    });

    it('health-checks Postgres, the replica, Redis and the APIs', () => {
      const env = environmentOf(service(apiNames[0]!));
      const databases = [hostOf(env.DATABASE_URL!), ...env.DATABASE_REPLICA_URLS!.split(',').map(hostOf), hostOf(env.REDIS_URL!)];
      for (const name of [...databases, ...apiNames]) expect(service(name).healthcheck?.test, `${name} healthcheck`).to.be.an('array').that.is.not.empty;
      for (const name of apiNames) {
        for (const [dependency, { condition }] of Object.entries(service(name).depends_on ?? {})) {
          if (condition === 'service_healthy') expect(service(dependency).healthcheck, `${name} waits for ${dependency} to be healthy`).to.not.equal(undefined);
        }
      }
    });

    it("the APIs' healthcheck passes on a ready server and fails on an unready, a wrong path or no server", async () => {
      const health = read('src/server/http/health-routes.ts');
      let status = 200;
      let asked = '';
      // Answers only the probe paths the server serves.
      const server: Server = createServer((request, response) => {
        asked = request.url ?? '';
        const probe = ['/healthz', '/readyz'].includes(asked) && health.includes(`'${asked}'`);
        response.writeHead(probe ? status : 404).end();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;
      const test = service(apiNames[0]!).healthcheck!.test;
      const env = { PATH: process.env.PATH, PORT: String(port) };
      try {
        expect(await runHealthcheck(test, env), 'ready').to.equal(0);
        expect(asked, 'the readiness probe').to.equal('/readyz');
        status = 503;
        expect(await runHealthcheck(test, env), 'unready').to.not.equal(0);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
      expect(await runHealthcheck(test, env), 'no server').to.not.equal(0);
    });

    it('gives the APIs longer to stop than they take to drain', () => {
      for (const name of apiNames) {
        expect(seconds(service(name).stop_grace_period ?? '10s'), name).to.be.above(SHUTDOWN_GRACE_MS / 1000);
      }
    });

    it("fits every process's pools within max_connections on the primary and on each replica", () => {
      const env = environmentOf(service(apiNames[0]!));
      const config = loadConfig(env);
      // One server process per API container (the image's CMD), unless a service runs the cluster.
      const processes = apiNames.reduce((sum, name) => {
        const cluster = (service(name).command ?? []).some((word) => word.endsWith('cluster.js'));
        return sum + (cluster ? Number(environmentOf(service(name)).CLUSTER_WORKERS) : 1);
      }, 0);
      expect(processes).to.be.at.least(2);
      // docs/DEPLOYMENT.md: 3 for superusers, about 10 for migrations, keys and monitoring.
      const reserve = 13;
      const listener = config.keyCacheSeconds > 0 ? 1 : 0;
      const primary = service(hostOf(env.DATABASE_URL!));
      const primaryMax = Number(postgresSetting(primary, 'max_connections') ?? 100);
      expect(processes * (config.databasePoolMax + listener), 'connections on the primary').to.be.at.most(primaryMax - reserve);
      for (const url of config.databaseReplicaUrls) {
        const replicaMax = Number(postgresSetting(service(hostOf(url)), 'max_connections') ?? 100);
        expect(replicaMax, 'a hot standby needs max_connections >= the primary').to.be.at.least(primaryMax);
        expect(processes * config.databasePoolMax, `connections on ${hostOf(url)}`).to.be.at.most(replicaMax - reserve);
      }
    });

    it('mounts deploy/ files that exist; its scripts are executable shell', () => {
      const mounts = Object.values(compose.services).flatMap((s) => s.volumes ?? []).filter((volume) => volume.startsWith('./'));
      expect(mounts.length).to.be.at.least(3);
      for (const mount of mounts) {
        const [source] = mount.split(':');
        expect(existsSync(join(ROOT, source!)), mount).to.equal(true);
        if (source!.endsWith('.sh')) {
          // The postgres image runs an executable init script, and sources one that is not (in its own shell).
          expect(statSync(join(ROOT, source!)).mode & 0o111, `${source} executable`).to.not.equal(0);
          execFileSync('sh', ['-n', join(ROOT, source!)]);
        }
      }
      for (const volume of Object.values(compose.services).flatMap((s) => s.volumes ?? []).filter((v) => !v.startsWith('./'))) {
        expect(compose.volumes ?? {}, `named volume of ${volume}`).to.have.property(volume.split(':')[0]!);
      }
    });

    it("replica: its first start copies the primary with pg_basebackup -R as a role the primary's init script lets in", () => {
      const env = environmentOf(service(apiNames[0]!));
      const primary = service(hostOf(env.DATABASE_URL!));
      const init = primary.volumes?.find((volume) => volume.includes(':/docker-entrypoint-initdb.d/'));
      expect(init, 'an init script for the primary').to.not.equal(undefined);
      const initScript = read(init!.split(':')[0]!);
      const [, role] = /create role (\w+) with replication login/i.exec(initScript) ?? [];
      expect(role, 'a replication role').to.not.equal(undefined);
      expect(initScript).to.include(`host replication ${role} samenet scram-sha-256`).and.include('$PGDATA/pg_hba.conf');

      for (const url of env.DATABASE_REPLICA_URLS!.split(',')) {
        const replica = service(hostOf(url));
        const mount = replica.volumes?.find((volume) => (replica.entrypoint ?? []).includes(volume.split(':')[1]!));
        expect(mount, `${hostOf(url)}: its entrypoint is mounted from deploy/`).to.not.equal(undefined);
        const script = read(mount!.split(':')[0]!);
        expect(script).to.match(/if \[ ! -s "\$PGDATA\/PG_VERSION" \]/);
        expect(script).to.match(/pg_basebackup[^]*--username=(\w+)[^]*--write-recovery-conf/);
        expect(/--username=(\w+)/.exec(script)![1], 'the role the primary lets in').to.equal(role);
        expect(script.trimEnd()).to.match(/exec docker-entrypoint\.sh "\$@"$/);
        // An entrypoint of its own clears the image's command: it must name postgres again.
        expect(replica.command?.[0]).to.equal('postgres');
      }
    });

    it('load balancer: every API instance on its port, health-checked on /readyz, on the port it publishes', () => {
      const lb = service('lb');
      const mount = lb.volumes?.find((volume) => volume.endsWith(':/etc/caddy/Caddyfile:ro'));
      expect(mount).to.not.equal(undefined);
      const caddyfile = read(mount!.split(':')[0]!);
      const [, upstreams = ''] = /reverse_proxy\s+([^{\n]+)\{/.exec(caddyfile) ?? [];
      const expected = apiNames.map((name) => `${name}:${environmentOf(service(name)).PORT ?? DEFAULTS.port}`);
      expect(upstreams.trim().split(/\s+/).sort()).to.deep.equal(expected.sort());
      expect(/health_uri (\S+)/.exec(caddyfile)?.[1]).to.equal('/readyz');
      const [, listen] = /^:(\d+) \{/m.exec(caddyfile) ?? [];
      expect((lb.ports ?? []).map((port) => port.split(':').at(-1)), 'the published port').to.include(listen);
      for (const name of apiNames) expect(service(name).ports, `${name} is reached through lb only`).to.equal(undefined);
    });
  });

  describe('docs/DEPLOYMENT.md', () => {
    it('names in its settings table only settings the server knows', () => {
      const names = firstColumnNames(guide, 'Settings');
      expect(names).to.include.members(['CURSOR_SECRET', 'REDIS_URL', 'DATABASE_URL', 'TRUST_PROXY']);
      const known = knownSettings();
      for (const name of names) expect(known.has(name), `${name} is read by src/server/config.ts or the tracing switch`).to.equal(true);
    });

    it('lists every setting of src/server/config.ts in that one table', () => {
      expect(firstColumnNames(guide, 'Settings')).to.include.members([...settingsReadBy('src/server/config.ts')]);
    });

    it('says the files were not run here', () => {
      expect(guide).to.include('This machine has no Docker engine');
      expect(guide).to.include('test/tools/deployment-files.test.ts');
    });
  });
});
