import { expect } from 'chai';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeDatabaseFree } from '../support/database-free.ts';
import { anchorsOf, checkDocs, githubSlug, type Repository } from '../support/markdown-check.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The repository on disk, paths from its root. */
const onDisk: Repository = {
  read: (path) => (existsSync(join(ROOT, path)) ? readFileSync(join(ROOT, path), 'utf8') : null),
  exists: (path) => existsSync(join(ROOT, path)),
  scripts: new Set(Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts)),
};

/** README.md and every Markdown file under docs/, generated ones included. */
function documents(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => relative(ROOT, join(ROOT, 'docs', file)).split(sep).join('/'));
  return ['README.md', ...docs.sort()];
}

/** A tiny repository in memory, with the mistakes the check must catch. */
function tinyRepository(files: Record<string, string>): Repository {
  return {
    read: (path) => files[path] ?? null,
    exists: (path) => path in files || Object.keys(files).some((file) => file.startsWith(`${path}/`)),
    scripts: new Set(['start', 'docs']),
  };
}

describeDatabaseFree?.('the README and docs/: links, anchors and commands', () => {
  it('finds the documents it checks', () => {
    const files = documents();
    expect(files).to.include.members(['README.md', 'docs/README.md', 'docs/DEPLOYMENT.md', 'docs/guides/getting-started.md', 'docs/reference/README.md']);
  });

  it('has no broken relative link or anchor, no guide link the docs site cannot serve, and no command package.json or the repository lacks', () => {
    expect(checkDocs({ repo: onDisk, files: documents() })).to.deep.equal([]);
  });

  // README.md is the first ten minutes and PERFORMANCE.md the figures as they stand: each has a length it must
  // not outgrow (the history of both is in git).
  it('keeps README.md within 250 lines and docs/PERFORMANCE.md within 400', () => {
    const lines = (path: string): number => (onDisk.read(path) ?? '').trimEnd().split('\n').length;
    expect(lines('README.md'), "README.md's lines").to.be.at.most(250);
    expect(lines('docs/PERFORMANCE.md'), "docs/PERFORMANCE.md's lines").to.be.at.most(400);
  });

  describe('the check itself', () => {
    it('slugs headings as GitHub does', () => {
      expect(githubSlug('Rotating CURSOR_SECRET')).to.equal('rotating-cursor_secret');
      expect(githubSlug('Order: sort=-createdAt')).to.equal('order-sort-createdat');
      expect(githubSlug('One machine: npm run start:cluster')).to.equal('one-machine-npm-run-startcluster');
      expect([...anchorsOf('# A\n\n## Notes\n\n```sh\n# not a heading\n```\n\n## Notes\n\n### `x` & [y](z.md)\n<a id="here"></a>\n')])
        .to.have.members(['a', 'notes', 'notes-1', 'x--y', 'here']);
    });

    it('fails on a missing file, a missing anchor, a missing guide, an unknown script or a missing tool', () => {
      const repo = tinyRepository({
        'README.md': [
          '# Title', '', '## Start here', '',
          '[ok](docs/a.md#the-a) [ok](#start-here) [ok](docs) [site](/api/public/v1/docs/a) [web](https://example.com/x.md)',
          '[gone](docs/missing.md) [bad anchor](docs/a.md#nope) [self](#nowhere) [guide](/api/public/v1/docs/nope)',
          '', '```sh', 'npm ci && npm start', 'npm run docs -- --check', 'npm run bench   # no such script',
          'npm test', 'node --import tsx tools/gone.ts', 'node dist/tools/keys.js list', '```', '',
          'Inline: `npm run -s export -- products` and `npm run -s`.',
        ].join('\n'),
        'docs/a.md': '# The A\n\nBack to [the top](../README.md#title).\n',
        'docs/guides/a.md': '# A guide\n',
        'tools/keys.ts': '',
      });
      expect(checkDocs({ repo, files: ['README.md', 'docs/a.md'] })).to.deep.equal([
        'README.md: docs/missing.md: no file docs/missing.md',
        'README.md: docs/a.md#nope: docs/a.md has no heading whose anchor is #nope',
        'README.md: #nowhere: README.md has no heading whose anchor is #nowhere',
        "README.md: /api/public/v1/docs/nope: the docs site serves no guide 'nope' (docs/guides/nope.md)",
        "README.md: npm run bench: package.json has no script 'bench'",
        "README.md: npm test: package.json has no 'test' script",
        'README.md: node --import tsx tools/gone.ts: no file tools/gone.ts',
        "README.md: npm run export: package.json has no script 'export'",
      ]);
    });
  });
});
