import { expect } from 'chai';
import { KEY_REFUSALS } from '../../../src/engine/request/key-refusals.ts';

describe('KEY_REFUSALS', () => {
  it('has the six reasons a key is refused, in the order the documents list them, and no other', () => {
    expect(Object.keys(KEY_REFUSALS)).to.deep.equal(['missing', 'malformed', 'unknown_or_revoked', 'expired', 'brand_not_allowed', 'family_not_allowed']);
    expect(Object.isFrozen(KEY_REFUSALS)).to.equal(true);
  });

  it('gives each reason a sentence of its own', () => {
    const messages = Object.values(KEY_REFUSALS);
    expect(new Set(messages).size).to.equal(messages.length);
    for (const message of messages) expect(message, message).to.match(/^The |^An /).and.match(/\.$/);
  });

  it('tells how to send a key only where the header is what is wrong', () => {
    for (const [reason, message] of Object.entries(KEY_REFUSALS)) {
      expect(message.includes('Authorization: Bearer <key>'), reason).to.equal(reason === 'missing' || reason === 'malformed');
    }
  });

  it('says unknown and revoked in one message: a guessed key learns nothing of whether it ever existed', () => {
    expect(KEY_REFUSALS.unknown_or_revoked).to.contain('unknown').and.contain('revoked');
    expect(Object.keys(KEY_REFUSALS)).to.not.include.members(['unknown', 'revoked']);
  });
});
