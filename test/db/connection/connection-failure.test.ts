import { expect } from 'chai';
import { isConnectionFailure, isConnectTimeout, isReadTimeout, isRecoveryConflict } from '../../../src/db/connection/connection-failure.ts';

const error = (message: string, fields: object = {}): Error => Object.assign(new Error(message), fields);

describe('isConnectionFailure', () => {
  it('is true for a refused, reset or shut-down connection and for a pool that found none in time', () => {
    expect(isConnectionFailure(error('connect ECONNREFUSED', { code: 'ECONNREFUSED' }))).to.equal(true);
    expect(isConnectionFailure(error('read ECONNRESET', { code: 'ECONNRESET' }))).to.equal(true);
    expect(isConnectionFailure(error('terminating connection due to administrator command', { code: '57P01' }))).to.equal(true);
    expect(isConnectionFailure(error('the database system is starting up', { code: '57P03' }))).to.equal(true);
    expect(isConnectionFailure(error('connection failure', { code: '08006' }))).to.equal(true);
    expect(isConnectionFailure(error('Connection terminated unexpectedly'))).to.equal(true);
    expect(isConnectionFailure(Object.assign(error('Knex: Timeout acquiring a connection.'), { name: 'KnexTimeoutError' }))).to.equal(true);
    // pg-pool's wait for a free connection, and pg's connect started for it.
    expect(isConnectionFailure(error('timeout exceeded when trying to connect'))).to.equal(true);
    expect(isConnectionFailure(error('Connection terminated due to connection timeout'))).to.equal(true);
    // pg's client-side query timeout, which fires only when the server did not even end the statement itself.
    expect(isConnectionFailure(error('Query read timeout'))).to.equal(true);
  });

  it('tells a client-side read timeout (isReadTimeout) from a statement the server cancelled', () => {
    expect(isReadTimeout(error('Query read timeout'))).to.equal(true);
    // As knex words it: the SQL, then pg's message.
    expect(isReadTimeout(error('select 1 - Query read timeout'))).to.equal(true);
    expect(isConnectionFailure(error('select 1 - Query read timeout'))).to.equal(true);
    expect(isReadTimeout(error('canceling statement due to statement timeout', { code: '57014' }))).to.equal(false);
    expect(isReadTimeout({ message: 'Query read timeout' })).to.equal(false);
  });

  it('is false for a statement that failed on a working connection', () => {
    expect(isConnectionFailure(error('canceling statement due to statement timeout', { code: '57014' }))).to.equal(false);
    expect(isConnectionFailure(error('relation "x" does not exist', { code: '42P01' }))).to.equal(false);
    expect(isConnectionFailure('ECONNREFUSED')).to.equal(false);
  });
});

describe('isConnectTimeout', () => {
  it('is true for a wait for a pooled connection that ran out, in pg-pool\'s, pg\'s and knex\'s words, and for nothing else', () => {
    expect(isConnectTimeout(error('timeout exceeded when trying to connect'))).to.equal(true);
    expect(isConnectTimeout(error('Connection terminated due to connection timeout'))).to.equal(true);
    expect(isConnectTimeout(Object.assign(error('Knex: Timeout acquiring a connection.'), { name: 'KnexTimeoutError' }))).to.equal(true);
    expect(isConnectTimeout(error('Connection terminated unexpectedly'))).to.equal(false);
    expect(isConnectTimeout(error('Query read timeout'))).to.equal(false);
    expect(isConnectTimeout({ message: 'timeout exceeded when trying to connect' })).to.equal(false);
  });
});

describe('isRecoveryConflict', () => {
  it('is true for a statement a hot standby cancelled to apply WAL', () => {
    expect(isRecoveryConflict(error('canceling statement due to conflict with recovery', { code: '40001' }))).to.equal(true);
  });

  it('is false for a serialization failure of another kind, another code, or what is not an Error', () => {
    expect(isRecoveryConflict(error('could not serialize access due to concurrent update', { code: '40001' }))).to.equal(false);
    expect(isRecoveryConflict(error('canceling statement due to conflict with recovery', { code: '57014' }))).to.equal(false);
    expect(isRecoveryConflict({ code: '40001', message: 'canceling statement due to conflict with recovery' })).to.equal(false);
  });
});
