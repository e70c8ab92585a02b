import { expect } from 'chai';
import { pascalCase, recordTypeName } from '../../../src/engine/openapi/record-type-name.ts';

describe('recordTypeName', () => {
  it('names a record in the singular, in PascalCase', () => {
    expect(recordTypeName('products')).to.equal('Product');
    expect(recordTypeName('carton-sizes')).to.equal('CartonSize');
    expect(recordTypeName('categories')).to.equal('Category');
    expect(recordTypeName('dimension-curve-axes')).to.equal('DimensionCurveAxis');
    expect(recordTypeName('boxes')).to.equal('Box');
    expect(recordTypeName('addresses')).to.equal('Address');
    expect(recordTypeName('brands')).to.equal('Brand');
  });

  it('makes the word before "of" singular, and leaves a word that is not plural', () => {
    expect(recordTypeName('units-of-measure')).to.equal('UnitOfMeasure');
    expect(recordTypeName('bills-of-materials')).to.equal('BillOfMaterials');
    expect(recordTypeName('class')).to.equal('Class');
    expect(recordTypeName('stock')).to.equal('Stock');
  });

  it('pascalCase keeps the plural', () => {
    expect(pascalCase('units-of-measure')).to.equal('UnitsOfMeasure');
    expect(pascalCase('bom-skus')).to.equal('BomSkus');
  });
});
