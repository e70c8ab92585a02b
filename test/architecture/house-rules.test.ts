import { parse } from '@babel/parser';
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The house rules of docs/ARCHITECTURE.md, checked on every run so they hold
 * without anyone remembering them: the engine is pure, layers import only
 * downwards, no import cycle, and files and functions stay small enough to
 * read at once. (TypeScript 7 has no JavaScript API, so functions are found
 * with Babel's parser.)
 */

const ROOT = resolve(fileURLToPath(new URL('../../', import.meta.url)));
const MAX_FILE_LINES = 220;
const MAX_FUNCTION_LINES = 60;
const MAX_POSITIONAL_INPUTS = 4;

/** Packages that are the database's or HTTP's: the engine reaches them only through its ports. */
const IMPURE_PACKAGES = ['koa', '@koa/router', 'koa-compose', 'pg', 'knex', 'knex-pglite', '@electric-sql/pglite', 'ioredis', 'rate-limiter-flexible'];

const tracked = (pattern: string): string[] =>
  execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', pattern], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file.endsWith('.ts'));

/** Hand-written code that the rules apply to (generated files and test data are exempt). */
const SOURCE_FILES = ['src', 'tools', 'bench', 'client/src'].flatMap((folder) => tracked(folder)).filter((file) => !file.endsWith('.generated.ts'));
const ALL_FILES = [...SOURCE_FILES, ...tracked('test'), ...tracked('resources'), ...tracked('migrations')];

const read = (file: string): string => readFileSync(resolve(ROOT, file), 'utf8');

/** Every module a file imports: packages by name, repository files by path from the root. */
function importsOf(file: string): string[] {
  const found: string[] = [];
  for (const match of read(file).matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    const spec = (match[1] ?? match[2])!;
    found.push(spec.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), spec)) : spec);
  }
  return found;
}

function cycles(files: readonly string[]): string[][] {
  const graph = new Map(files.map((file) => [file, importsOf(file).filter((target) => target.endsWith('.ts'))]));
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return found;
}

interface FunctionShape {
  readonly where: string;
  readonly lines: number;
  readonly inputs: number;
}

function functionsOf(file: string): FunctionShape[] {
  const ast = parse(read(file), { sourceType: 'module', plugins: ['typescript'], errorRecovery: false });
  const found: FunctionShape[] = [];
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(visit);
    const { type, loc, params } = node as { type?: string; loc?: { start: { line: number }; end: { line: number } }; params?: unknown[] };
    if (type && /^(FunctionDeclaration|FunctionExpression|ArrowFunctionExpression|ObjectMethod|ClassMethod)$/.test(type) && loc && params) {
      found.push({ where: `${file}:${loc.start.line}`, lines: loc.end.line - loc.start.line + 1, inputs: params.length });
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'loc' && key !== 'extra') visit(value);
  };
  visit(ast.program);
  return found;
}

describe('house rules (docs/ARCHITECTURE.md)', () => {
  it('finds the files it checks', () => {
    expect(SOURCE_FILES.filter((file) => file.startsWith('src/engine/')).length).to.be.greaterThan(10);
  });

  it('keeps the engine pure: no database or HTTP package, nothing from src/db, src/server or src/seed', () => {
    const impure = SOURCE_FILES.filter((file) => file.startsWith('src/engine/')).flatMap((file) =>
      importsOf(file)
        .filter((spec) => IMPURE_PACKAGES.includes(spec) || /^src\/(db|server|seed)\//.test(spec))
        .map((spec) => `${file} imports ${spec}`));
    expect(impure).to.deep.equal([]);
  });

  it('imports downwards only: src/db never imports src/server or src/seed', () => {
    const upwards = SOURCE_FILES.filter((file) => file.startsWith('src/db/')).flatMap((file) =>
      importsOf(file).filter((spec) => /^src\/(server|seed)\//.test(spec)).map((spec) => `${file} imports ${spec}`));
    expect(upwards).to.deep.equal([]);
  });

  it('has no import cycle', () => {
    expect(cycles(ALL_FILES).map((cycle) => cycle.join(' -> '))).to.deep.equal([]);
  });

  it(`keeps every source file at ${MAX_FILE_LINES} lines or fewer`, () => {
    const long = SOURCE_FILES.map((file) => ({ file, lines: read(file).split('\n').length })).filter(({ lines }) => lines > MAX_FILE_LINES);
    expect(long.map(({ file, lines }) => `${file}: ${lines} lines`)).to.deep.equal([]);
  });

  it(`keeps every function at ${MAX_FUNCTION_LINES} lines or fewer, taking at most ${MAX_POSITIONAL_INPUTS} inputs (more go in one named object)`, () => {
    const shapes = SOURCE_FILES.flatMap(functionsOf);
    expect(shapes.filter((shape) => shape.lines > MAX_FUNCTION_LINES).map((shape) => `${shape.where}: ${shape.lines} lines`)).to.deep.equal([]);
    expect(shapes.filter((shape) => shape.inputs > MAX_POSITIONAL_INPUTS).map((shape) => `${shape.where}: ${shape.inputs} inputs`)).to.deep.equal([]);
  });
});
