import { expect } from 'chai';
import { DATA_SHAPE, LOADED_TABLES, TABLE_NUMBER, expectedRows } from '../../../bench/data/data-shape.ts';

describe('expectedRows', () => {
  it('gives approved (odd-numbered) products colourways and sizes, and every brand its orders', () => {
    const rows = expectedRows([{ productCount: 5 }, { productCount: 2 }]);
    // Approved: 3 of 5 and 1 of 2.
    expect(rows.products).to.equal(7);
    expect(rows.product_options).to.equal(4 * DATA_SHAPE.optionsPerApprovedProduct);
    expect(rows.skus).to.equal(4 * DATA_SHAPE.optionsPerApprovedProduct * DATA_SHAPE.skusPerOption);
    expect(rows.orders).to.equal(2);
    expect(rows.order_items).to.equal(2 * DATA_SHAPE.itemsPerOrder);
    expect(rows.categories).to.equal(2 * DATA_SHAPE.categoriesPerBrand);
  });
});

describe('LOADED_TABLES', () => {
  it('lists every table once, parents before children, each with its own number for ids', () => {
    expect(LOADED_TABLES).to.deep.equal(['brands', 'categories', 'colors', 'suppliers', 'products', 'product_options', 'skus', 'orders', 'order_items']);
    expect(new Set(Object.values(TABLE_NUMBER)).size).to.equal(LOADED_TABLES.length);
  });
});
