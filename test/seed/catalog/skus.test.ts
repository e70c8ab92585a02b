import { expect } from 'chai';
import { COLOURWAYS } from '../../../src/seed/catalog/colourways.ts';
import { planSkus, skusOf, type SkuRef } from '../../../src/seed/catalog/skus.ts';
import { gs1CheckDigit } from '../../../src/seed/values.ts';

describe('the SKUs of the catalog', () => {
  const plans = planSkus();

  it('are one per colourway and size, XS to XL, coded <style>-<colour>-<size>', () => {
    expect(plans).to.have.length(Object.keys(COLOURWAYS).length * 5);
    expect(plans.slice(0, 5).map((plan) => plan.code)).to.deep.equal(['NW-TS-001-NAV-XS', 'NW-TS-001-NAV-S', 'NW-TS-001-NAV-M', 'NW-TS-001-NAV-L', 'NW-TS-001-NAV-XL']);
    expect(new Set(plans.map((plan) => plan.code)).size).to.equal(plans.length);
  });

  it('carry distinct EAN-13 barcodes with valid check digits, from item reference 101', () => {
    expect(plans[0]!.barcode.slice(7, 12)).to.equal('00101');
    expect(new Set(plans.map((plan) => plan.barcode)).size).to.equal(plans.length);
    for (const { barcode } of plans) expect(barcode.slice(-1)).to.equal(gs1CheckDigit(barcode.slice(0, 12)));
  });

  it('are inactive for a draft colourway only', () => {
    const inactive = new Set(plans.filter((plan) => plan.status === 'inactive').map((plan) => plan.colourway));
    expect([...inactive]).to.deep.equal(['teeForest']);
    expect(COLOURWAYS.teeForest.status).to.equal('draft');
  });

  it('skusOf picks one colourway\'s SKUs', () => {
    const sku = (id: string, productOptionId: string): SkuRef => ({ id, code: id, barcode: '', productId: 'p', productOptionId, size: 'M' });
    expect(skusOf({ skus: [sku('a', 'navy'), sku('b', 'oat'), sku('c', 'navy')] }, 'navy').map((s) => s.id)).to.deep.equal(['a', 'c']);
  });
});
