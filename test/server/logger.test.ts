import { expect } from 'chai';
import { collectingLogger } from '../support/collecting-logger.ts';

describe('createLogger', () => {
  it('writes JSON lines naming the service, with an ISO 8601 time and the level as a number', () => {
    const { logger, lines } = collectingLogger();
    logger.info({ requestId: 'r-1' }, 'request');
    expect(lines).to.have.length(1);
    const [line] = lines;
    expect(line).to.include({ level: 30, service: 'brand-catalog-read-api', requestId: 'r-1', msg: 'request' });
    expect(line!.time).to.be.a('string').and.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('never writes an Authorization header, wherever a line carries one', () => {
    const { logger, lines } = collectingLogger();
    const key = 'bcat_sk_0000000000000000000000000000000000000000abcdef';
    logger.warn({ req: { headers: { authorization: `Bearer ${key}`, accept: 'application/json' } } }, 'odd request');
    logger.warn({ headers: { authorization: `Bearer ${key}` } }, 'odd headers');
    expect(JSON.stringify(lines)).to.not.contain(key);
    expect((lines[0]!.req as { headers: Record<string, string> }).headers).to.deep.equal({ authorization: '[redacted]', accept: 'application/json' });
    expect((lines[1]!.headers as Record<string, string>).authorization).to.equal('[redacted]');
  });

  it('writes only lines at its level or above', () => {
    const { logger, lines } = collectingLogger({ level: 'warn' });
    logger.info('not written');
    logger.warn('written');
    logger.error('written too');
    expect(lines.map((line) => [line.level, line.msg])).to.deep.equal([[40, 'written'], [50, 'written too']]);
  });
});
