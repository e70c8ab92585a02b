import { expect } from 'chai';
import { depositAndBalance } from '../../../src/seed/finance/payment-agreements.ts';

describe('the tee order\'s payment plan', () => {
  it('splits the total into a 30% deposit, to the cent, and the balance, which add up to it exactly', () => {
    expect(depositAndBalance('7056.00')).to.deep.equal({ deposit: '2116.80', balance: '4939.20' });
    const { deposit, balance } = depositAndBalance('100.01');
    expect(deposit).to.equal('30.00');
    expect(balance).to.equal('70.01');
  });
});
