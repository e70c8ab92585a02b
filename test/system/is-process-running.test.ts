import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { isProcessRunning, processState } from '../../src/system/is-process-running.ts';
import { spawnZombie } from '../support/zombie-process.ts';
import { describeDatabaseFree } from '../support/database-free.ts';

describeDatabaseFree?.('isProcessRunning', () => {
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

  it('says a zombie (ended, not reaped: its pid still answers signal 0) is not running', async () => {
    const zombie = await spawnZombie();
    try {
      process.kill(zombie.pid, 0); // the pid exists: signal 0 alone would call it running
      expect(processState(zombie.pid)).to.equal('Z');
      expect(isProcessRunning(zombie.pid)).to.equal(false);
    } finally {
      await zombie.dispose();
    }
  });

  it('reads the state of a process from /proc, and null for no process', () => {
    expect(processState(process.pid)).to.match(/^[RS]$/);
    const ended = spawnSync(process.execPath, ['-e', '']);
    expect(processState(ended.pid)).to.equal(null);
  });
});
