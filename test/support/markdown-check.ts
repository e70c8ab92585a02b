import { marked, type Token, type Tokens } from 'marked';
import { dirname, join, normalize } from 'node:path/posix';

/**
 * What a reader of the README and docs/ would trip on: a relative link to a
 * file that is not there, an anchor no heading of the target makes, a guide's
 * link to a docs-site page no guide serves, and a command that names an npm
 * script package.json does not have or a file the repository does not hold.
 * Pure: the repository is given as two functions, so a test can hand it a
 * tiny one with the mistakes in it.
 */
export interface Repository {
  /** The text of a repository file (path from the root, `/`-separated), or null when there is none. */
  readonly read: (path: string) => string | null;
  /** Whether a file or folder exists at that path. */
  readonly exists: (path: string) => boolean;
  /** The scripts of package.json. */
  readonly scripts: ReadonlySet<string>;
}

/** Where the docs site serves the guides: `/api/public/v1/docs/<name>` is `docs/guides/<name>.md`. */
const GUIDE_PAGES = /^\/api\/public\/v1\/docs\/([^/#?]+)(?:#.*)?$/;

/** npm's own commands that need no script of ours. */
const NPM_BUILTINS = new Set(['ci', 'install', 'i', 'exec', 'x', 'view', 'pack', 'publish', 'ls', 'outdated', 'audit', 'update', 'init', 'uninstall', 'config', 'cache', 'version', 'help', 'prefix', 'root', 'link', 'explain', 'rebuild', 'dedupe', 'prune']);
/** npm's commands that run a script of the same name. */
const NPM_LIFECYCLE: Record<string, string> = { start: 'start', test: 'test', t: 'test', stop: 'stop', restart: 'restart' };

/** A heading's anchor as GitHub makes it: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
export function githubSlug(text: string): string {
  return text.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
}

/** The text a reader sees of inline tokens (code spans by their content, links by their text). */
function plainText(tokens: readonly Token[]): string {
  return tokens.map((token) => {
    const children = (token as { tokens?: Token[] }).tokens;
    if (children) return plainText(children);
    if (token.type === 'codespan') return token.raw.replace(/^`+\s?|\s?`+$/g, '');
    return token.type === 'html' ? '' : (token as { text?: string }).text ?? '';
  }).join('');
}

/** Every anchor a Markdown text has: its headings' slugs (repeats get -1, -2, ...) and HTML ids. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type === 'heading') {
      const slug = githubSlug(plainText((token as Tokens.Heading).tokens));
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    if (token.type === 'html') for (const match of token.raw.matchAll(/\b(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  });
  return anchors;
}

interface Found {
  readonly links: string[];
  readonly code: string[];
}

/** The link targets (links, images, references) and the code (blocks and spans) of a Markdown text. */
function linksAndCode(markdown: string): Found {
  const found: Found = { links: [], code: [] };
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type === 'link' || token.type === 'image') found.links.push((token as Tokens.Link).href);
    if (token.type === 'code') found.code.push((token as Tokens.Code).text);
    if (token.type === 'codespan') found.code.push(token.raw.replace(/^`+|`+$/g, '').replace(/\s+/g, ' '));
  });
  return found;
}

/** The problem with one link of `file`, or null. */
export function linkProblem({ repo, file, href }: { repo: Repository; file: string; href: string }): string | null {
  const guide = GUIDE_PAGES.exec(href);
  if (guide) return repo.exists(`docs/guides/${guide[1]}.md`) ? null : `${href}: the docs site serves no guide '${guide[1]}' (docs/guides/${guide[1]}.md)`;
  if (/^[a-z][a-z0-9+.-]*:|^\/|^\/\//i.test(href)) return null;
  const [pathPart = '', anchor] = href.split('#', 2) as [string, string | undefined];
  const target = pathPart === '' ? file : normalize(join(dirname(file), decodeURIComponent(pathPart))).replace(/\/$/, '');
  if (target.startsWith('..')) return `${href}: leaves the repository`;
  if (!repo.exists(target)) return `${href}: no file ${target}`;
  if (anchor === undefined || !target.endsWith('.md')) return null;
  const text = repo.read(target);
  if (text !== null && !anchorsOf(text).has(decodeURIComponent(anchor))) return `${href}: ${target} has no heading whose anchor is #${anchor}`;
  return null;
}

/** The problem with an npm command (`npm` and what follows it), or null. */
function npmProblem(words: readonly string[], scripts: ReadonlySet<string>): string | null {
  const [command = '', ...rest] = words;
  if (command === 'run' || command === 'run-script') {
    const script = rest.find((word) => !word.startsWith('-'));
    if (script === undefined || /^[<[$]/.test(script)) return null;
    return scripts.has(script) ? null : `npm run ${script}: package.json has no script '${script}'`;
  }
  const lifecycle = NPM_LIFECYCLE[command];
  if (lifecycle !== undefined) return scripts.has(lifecycle) ? null : `npm ${command}: package.json has no '${lifecycle}' script`;
  if (NPM_BUILTINS.has(command) || command.startsWith('-') || command === '') return null;
  return `npm ${command}: neither an npm command nor a script of package.json`;
}

/** A file a command runs, as the repository holds it: built JavaScript (`dist/x.js`) is the source `x.ts`. */
function sourceOf(path: string): string {
  return path.startsWith('dist/') ? path.slice('dist/'.length).replace(/\.js$/, '.ts') : path;
}

/** The problems of the commands in one piece of code. */
export function commandProblems({ repo, code }: { repo: Repository; code: string }): string[] {
  const problems: string[] = [];
  for (const line of code.split('\n')) {
    const command = line.replace(/\s#\s.*$/, '');
    for (const match of command.matchAll(/(?:^|[\s;&|(])npm\s+((?:[^\s;&|)]+\s*)+)/g)) {
      const problem = npmProblem(match[1]!.trim().split(/\s+/), repo.scripts);
      if (problem) problems.push(problem);
    }
    for (const match of command.matchAll(/(?:\bnode(?:\s+--import[= ]tsx)?|\btsx|\bnpx\s+(?:tsx|mocha))\s+((?:dist\/)?(?:tools|src|bench|test)\/[^\s'"`;)]+)/g)) {
      const path = sourceOf(match[1]!);
      if (!/[*<{]/.test(path) && !repo.exists(path)) problems.push(`${match[0].trim()}: no file ${path}`);
    }
  }
  return problems;
}

/** Every problem of the given Markdown files, each as `<file>: <problem>`. */
export function checkDocs({ repo, files }: { repo: Repository; files: readonly string[] }): string[] {
  return files.flatMap((file) => {
    const { links, code } = linksAndCode(repo.read(file) ?? '');
    return [
      ...links.map((href) => linkProblem({ repo, file, href })).filter((problem) => problem !== null),
      ...code.flatMap((piece) => commandProblems({ repo, code: piece })),
    ].map((problem) => `${file}: ${problem}`);
  });
}
