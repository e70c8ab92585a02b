import { COLORS } from './catalog-inserts.ts';
import { DATA_SHAPE, type LoadedTable } from './data-shape.ts';
import { APPROVED_PRODUCTS, brandId, childKey, pick, productCode, smallId, spread, uid } from './data-set-expressions.ts';

const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];

/** The colourways of every approved product, and their sizes (SKUs); a SKU computes its product's and colourway's ids itself. */
export function variantInserts(): Readonly<Record<Extract<LoadedTable, 'product_options' | 'skus'>, string>> {
  const { colorsPerBrand, optionsPerApprovedProduct, skusPerOption } = DATA_SHAPE;
  const colorOf = `((${spread('p.key', 32)} + j) % ${colorsPerBrand})`;
  const option = childKey('p.key', 'j');
  const sku = childKey(option, 's');
  return {
    product_options: `insert into product_options (id, brand_id, product_id, color_id, code, name, status, created_at, updated_at)
      select ${uid(option, 'product_options')}, ${brandId('b.ordinal')}, ${uid('p.key', 'products')},
        ${smallId('b.ordinal', colorOf, 'colors')}, 'C' || lpad(${colorOf}::text, 2, '0'), ${pick(COLORS, colorOf)},
        case when ${spread(option, 31)} % 10 < 8 then 'active' else 'draft' end,
        p.created_at + j * interval '1 second', p.created_at + j * interval '1 second'
      ${APPROVED_PRODUCTS}
      cross join generate_series(1, ${optionsPerApprovedProduct}) j
      order by 1`,

    skus: `insert into skus (id, brand_id, product_id, product_option_id, code, barcode, status, created_at, updated_at)
      select ${uid(sku, 'skus')}, ${brandId('b.ordinal')}, ${uid('p.key', 'products')}, ${uid(option, 'product_options')},
        ${productCode('b.ordinal', 'k')} || '-C' || lpad(${colorOf}::text, 2, '0') || '-' || ${pick(SIZES, 's - 1')},
        lpad(b.ordinal::text, 4, '0') || lpad(((k * 8 + j) * 8 + s)::text, 10, '0'),
        case when ${spread(sku, 41)} % 10 < 9 then 'active' else 'discontinued' end,
        p.created_at + j * interval '1 second' + s * interval '10 milliseconds',
        p.created_at + j * interval '1 second' + s * interval '10 milliseconds'
      ${APPROVED_PRODUCTS}
      cross join generate_series(1, ${optionsPerApprovedProduct}) j
      cross join generate_series(1, ${skusPerOption}) s
      order by 1`,
  };
}
