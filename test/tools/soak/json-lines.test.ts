import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { collectJsonLines } from '../../../tools/soak/json-lines.ts';

describe('collectJsonLines', () => {
  it('parses JSON lines however the chunks split them, keeps other lines as text, skips blank ones', () => {
    const stream = new PassThrough();
    const lines = collectJsonLines({ stream, max: 10 });
    stream.write('{"level":40,"msg":"a"}\n{"lev');
    stream.write('el":50}\n\nplain text\n   \n{"unfinished":');
    expect(lines).to.deep.equal([{ level: 40, msg: 'a' }, { level: 50 }, 'plain text']);
  });

  it('keeps at most `max` lines', () => {
    const stream = new PassThrough();
    const lines = collectJsonLines({ stream, max: 2 });
    stream.write('1\n2\n3\n4\n');
    expect(lines).to.deep.equal([1, 2]);
  });
});
