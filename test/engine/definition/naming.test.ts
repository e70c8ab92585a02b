import { expect } from 'chai';
import { NAME_SHAPE, toCamelCase, toTitle } from '../../../src/engine/definition/naming.ts';

describe('naming', () => {
  it('titles a path word by word, with the trade\'s acronyms and small words', () => {
    expect(toTitle('carton-sizes')).to.equal('Carton Sizes');
    expect(toTitle('units-of-measure')).to.equal('Units of Measure');
    expect(toTitle('bom-skus')).to.equal('BOM SKUs');
    expect(toTitle('boms')).to.equal('BOMs');
    expect(toTitle('sku-dimension-values')).to.equal('SKU Dimension Values');
    // A small word first is still capitalised.
    expect(toTitle('and-more')).to.equal('And More');
  });

  it('camel-cases kebab and snake case', () => {
    expect(toCamelCase('units-of-measure')).to.equal('unitsOfMeasure');
    expect(toCamelCase('length_cm')).to.equal('lengthCm');
  });

  it('takes camelCase definition names only', () => {
    expect(['id', 'lengthCm', 'sku2'].every((name) => NAME_SHAPE.test(name))).to.equal(true);
    expect(['Id', 'length_cm', 'length-cm', '2d', ''].some((name) => NAME_SHAPE.test(name))).to.equal(false);
  });
});
