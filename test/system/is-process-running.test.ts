import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { isProcessRunning } from '../../src/system/is-process-running.ts';

describe('isProcessRunning', () => {
  it('says this process is running', () => {
    expect(isProcessRunning(process.pid)).to.equal(true);
  });

  it('says a process that ended and was reaped is not running', () => {
    const ended = spawnSync(process.execPath, ['-e', '']);
    expect(ended.pid).to.be.greaterThan(0);
    expect(isProcessRunning(ended.pid)).to.equal(false);
  });

  it('counts a process it may not signal (EPERM) as running: pid 1 is always there', () => {
    expect(isProcessRunning(1)).to.equal(true);
  });
});
