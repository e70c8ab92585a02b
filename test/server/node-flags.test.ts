import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { missingServerNodeFlags, SERVER_NODE_FLAGS } from '../../src/server/node-flags.ts';
import { REPO_ROOT } from '../support/server-process.ts';

describe('SERVER_NODE_FLAGS (the options Node serves with)', () => {
  it('are what `npm start` and `npm run start:cluster` start Node with (the Dockerfile: test/tools/deployment-files.test.ts)', () => {
    const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const flags = SERVER_NODE_FLAGS.join(' ');
    expect(scripts.start).to.equal(`node ${flags} --import tsx src/server/main.ts`);
    expect(scripts['start:cluster']).to.equal(`node ${flags} --import tsx src/server/cluster.ts`);
  });

  it('are options this Node takes on its command line (an unknown one would stop every server at start)', () => {
    expect(SERVER_NODE_FLAGS).to.include('--no-memory-reducer');
    const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', 'process.stdout.write(JSON.stringify(process.execArgv))'], { encoding: 'utf8' });
    expect(run.status, run.stderr).to.equal(0);
    expect((JSON.parse(run.stdout) as string[]).slice(0, SERVER_NODE_FLAGS.length)).to.deep.equal([...SERVER_NODE_FLAGS]);
  });

  it('names the flags a process was started without', () => {
    expect(missingServerNodeFlags([])).to.deep.equal([...SERVER_NODE_FLAGS]);
    expect(missingServerNodeFlags(['--import', 'tsx', ...SERVER_NODE_FLAGS])).to.deep.equal([]);
    expect(missingServerNodeFlags(['--memory-reducer'])).to.deep.equal([...SERVER_NODE_FLAGS]);
  });
});
