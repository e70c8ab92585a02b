import { expect } from 'chai';
import { ApiError, ERROR_CODES, invalidParameters } from '../../../src/engine/request/api-error.ts';

describe('ApiError', () => {
  it('takes its status and client message from the code', () => {
    for (const [errorCode, { status, message }] of Object.entries(ERROR_CODES)) {
      const error = new ApiError({ errorCode: errorCode as keyof typeof ERROR_CODES });
      expect(error, errorCode).to.be.instanceOf(Error);
      expect(error.name).to.equal('ApiError');
      expect(error.status, errorCode).to.equal(status);
      expect(error.message, errorCode).to.equal(message);
      expect(error.details, errorCode).to.equal(undefined);
      expect(error.headers, errorCode).to.deep.equal({});
    }
  });

  it('gives every code of the contract a 4xx or 500 status and a sentence', () => {
    expect(Object.keys(ERROR_CODES)).to.deep.equal([
      'invalid_parameter', 'unsupported_include', 'invalid_cursor', 'cursor_mismatch', 'unauthorized', 'not_found', 'method_not_allowed', 'rate_limited', 'sync_token_expired', 'internal_error',
    ]);
    for (const { status, message } of Object.values(ERROR_CODES)) {
      expect(status === 500 || (status >= 400 && status < 500), String(status)).to.equal(true);
      expect(message).to.match(/^[A-Z].*\.$/);
    }
    expect(Object.isFrozen(ERROR_CODES)).to.equal(true);
  });

  it('carries a message, details and headers of its own, the headers frozen and copied', () => {
    const headers = { 'Retry-After': '3' };
    const error = new ApiError({ errorCode: 'rate_limited', message: 'Slow down.', details: { waited: 0 }, headers });
    expect(error.message).to.equal('Slow down.');
    expect(error.status).to.equal(429);
    expect(error.details).to.deep.equal({ waited: 0 });
    headers['Retry-After'] = '99';
    expect(error.headers).to.deep.equal({ 'Retry-After': '3' });
    expect(Object.isFrozen(error.headers)).to.equal(true);
  });

  it('takes another status for its code when given one: a 503 is internal_error', () => {
    const error = new ApiError({ errorCode: 'internal_error', status: 503, message: 'Not yet.' });
    expect([error.status, error.errorCode, error.message]).to.deep.equal([503, 'internal_error', 'Not yet.']);
  });

  it('lists the offending parameters of a 400 invalid_parameter in details', () => {
    const issues = [{ parameter: 'limit', message: 'must be at most 100' }, { parameter: 'foo', message: 'is not a parameter' }];
    const error = invalidParameters(issues);
    expect(error).to.include({ errorCode: 'invalid_parameter', status: 400, message: 'One or more parameters are invalid.' });
    expect(error.details).to.deep.equal(issues);
  });
});
