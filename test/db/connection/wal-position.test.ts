import { expect } from 'chai';
import { parseLsn, walPosition } from '../../../src/db/connection/wal-position.ts';
import { testDatabase } from '../../support/test-database.ts';

describe('parseLsn', () => {
  it('compares WAL positions as numbers, not text', async () => {
    expect(parseLsn('0/9000')! < parseLsn('0/10000')!).to.equal(true);
    expect(parseLsn('1/0')! > parseLsn('0/FFFFFFFF')!).to.equal(true);
    expect(parseLsn('16/B374D848')).to.equal((0x16n << 32n) + 0xB374D848n);
    expect(parseLsn('nonsense')).to.equal(null);
    expect(parseLsn(null)).to.equal(null);
  });
});

describe('walPosition', () => {
  it("gives a primary's insert position, which moves on with a write", async () => {
    const { db } = await testDatabase();
    const before = parseLsn(await walPosition(db));
    expect(before).to.be.a('bigint');
    await db.raw('create temporary table wal_position_probe (n int)');
    await db.raw('insert into wal_position_probe values (1)');
    await db.raw('drop table wal_position_probe');
    expect(parseLsn(await walPosition(db))! >= before!).to.equal(true);
  });
});
