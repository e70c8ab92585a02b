import { expect } from 'chai';

/** The contract's error body: exactly `{ error, errorCode, details? }`. */
export function expectErrorBody(body: unknown, errorCode: string, { details }: { details?: 'required' | 'forbidden' } = {}): void {
  expect(body, 'error body').to.be.an('object');
  const record = body as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  if (details === 'required') expect(keys).to.deep.equal(['details', 'error', 'errorCode']);
  else if (details === 'forbidden') expect(keys).to.deep.equal(['error', 'errorCode']);
  else expect(keys.filter((k) => k !== 'details')).to.deep.equal(['error', 'errorCode']);
  expect(record.error).to.be.a('string').and.not.equal('');
  expect(record.errorCode).to.equal(errorCode);
}
