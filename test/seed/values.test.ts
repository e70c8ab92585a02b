import { expect } from 'chai';
import { ean13, gs1CheckDigit, money, sscc } from '../../src/seed/values.ts';

describe('demo values', () => {
  it('money: two decimal places, rounded to the cent', () => {
    expect([money(4.2), money(1234), money(0.005), money(504 * 4.2)]).to.deep.equal(['4.20', '1234.00', '0.01', '2116.80']);
  });

  it('gs1CheckDigit: the mod-10 digit of known EAN-13s and of GS1\'s example SSCC, and only of digits', () => {
    expect(gs1CheckDigit('400638133393')).to.equal('1');
    expect(gs1CheckDigit('590123412345')).to.equal('7');
    expect(gs1CheckDigit('10614141123456789')).to.equal('7');
    expect(() => gs1CheckDigit('12a4')).to.throw('not digits: 12a4');
  });

  it('ean13: Northwind\'s company prefix, a 5-digit item reference and its check digit', () => {
    const code = ean13(101);
    expect(code).to.match(/^871932700101\d$/);
    expect(code.slice(-1)).to.equal(gs1CheckDigit(code.slice(0, 12)));
  });

  it('sscc: 18 digits, extension 0, the prefix, a 9-digit serial and its check digit', () => {
    const code = sscc(260_001_001);
    expect(code).to.match(/^08719327260001001\d$/);
    expect(code.slice(-1)).to.equal(gs1CheckDigit(code.slice(0, 17)));
  });
});
