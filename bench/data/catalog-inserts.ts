import { COMMON_STATUS, DATA_SHAPE, type LoadedTable } from './data-shape.ts';
import { brandId, EVERY_PRODUCT, pick, productCode, smallId, spread, START, uid } from './data-set-expressions.ts';

/** Statuses of the even-numbered products, and their shares of those, in percent. */
const OTHER_STATUSES = Object.freeze([
  { status: 'development', percent: 40 },
  { status: 'sampling', percent: 30 },
  { status: 'discontinued', percent: 30 },
]);

const ADJECTIVES = ['Alpine', 'Coastal', 'Urban', 'Heritage', 'Trail', 'Summit', 'Harbor', 'Meadow', 'Nordic', 'Desert',
  'Classic', 'Relaxed', 'Tailored', 'Cropped', 'Oversized', 'Vintage', 'Essential', 'Everyday', 'Weekend', 'Studio'];
const MATERIALS = ['Cotton', 'Linen', 'Merino', 'Nylon', 'Fleece', 'Denim', 'Twill', 'Corduroy', 'Jersey', 'Cashmere'];
/** Garments; no word holds another, so a search for one finds only its own products. */
const GARMENTS = ['Parka', 'Anorak', 'Blazer', 'Cardigan', 'Chino', 'Hoodie', 'Jogger', 'Kimono', 'Legging', 'Overshirt',
  'Peacoat', 'Polo', 'Pullover', 'Raincoat', 'Sweater', 'Tee', 'Tank', 'Trench', 'Vest', 'Windbreaker',
  'Bomber', 'Jumpsuit', 'Skirt', 'Shorts', 'Dress', 'Henley', 'Tunic', 'Poncho', 'Gilet', 'Smock'];

const CATEGORIES = ['Tops', 'Bottoms', 'Outerwear', 'Knitwear', 'Dresses', 'Footwear', 'Accessories', 'Underwear'];
export const COLORS = ['Navy', 'Oat', 'Forest', 'Black', 'White', 'Stone', 'Rust', 'Sky', 'Olive', 'Charcoal', 'Sand', 'Berry'];

/** An even-numbered product's status, by its share in OTHER_STATUSES. */
function otherStatus(): string {
  let bound = 0;
  return `case ${OTHER_STATUSES.map(({ status, percent }) => {
    bound += percent;
    return `when ${spread('p.key', 11)} % 100 < ${bound} then '${status}'`;
  }).join(' ')} end`;
}

/** The brands, their categories, colours and suppliers, and their products. */
export function catalogInserts(): Readonly<Record<Extract<LoadedTable, 'brands' | 'categories' | 'colors' | 'suppliers' | 'products'>, string>> {
  const { categoriesPerBrand, colorsPerBrand, suppliersPerBrand } = DATA_SHAPE;
  return {
    brands: `insert into brands (id, slug, name, created_at, updated_at)
      select ${brandId('b.ordinal')}, b.slug, b.name, ${START} - b.ordinal * interval '1 day', ${START}
      from bench_brands b order by 1`,

    categories: `insert into categories (id, brand_id, name, parent_id, created_at, updated_at)
      select ${smallId('b.ordinal', 'c', 'categories')}, ${brandId('b.ordinal')}, ${pick(CATEGORIES, 'c')}, null,
        ${START} - interval '1 hour' + c * interval '1 second', ${START}
      from bench_brands b cross join generate_series(0, ${categoriesPerBrand - 1}) c order by 1`,

    colors: `insert into colors (id, brand_id, code, name, hex_code, status, created_at, updated_at)
      select ${smallId('b.ordinal', 'c', 'colors')}, ${brandId('b.ordinal')}, 'C' || lpad(c::text, 2, '0'), ${pick(COLORS, 'c')},
        '#' || lpad(to_hex(${spread('c', 12)} % 16777216), 6, '0'), 'active',
        ${START} - interval '1 hour' + c * interval '1 second', ${START}
      from bench_brands b cross join generate_series(0, ${colorsPerBrand - 1}) c order by 1`,

    suppliers: `insert into suppliers (id, brand_id, code, name, status, currency, lead_time_days, created_at, updated_at)
      select ${smallId('b.ordinal', 's', 'suppliers')}, ${brandId('b.ordinal')}, 'SUP-' || lpad(s::text, 2, '0'),
        ${pick(ADJECTIVES, 's')} || ' Garments ' || s, 'active', 'EUR', 30 + s * 7,
        ${START} - interval '1 hour' + s * interval '1 second', ${START}
      from bench_brands b cross join generate_series(0, ${suppliersPerBrand - 1}) s order by 1`,

    products: `insert into products (id, brand_id, code, name, status, category_id, created_at, updated_at)
      select ${uid('p.key', 'products')}, ${brandId('b.ordinal')}, ${productCode('b.ordinal', 'k')},
        ${pick(ADJECTIVES, spread('p.key', 21))} || ' ' || ${pick(MATERIALS, spread('p.key', 22))} || ' ' || ${pick(GARMENTS, spread('p.key', 23))},
        case when k % 2 = 1 then '${COMMON_STATUS}' else ${otherStatus()} end,
        ${smallId('b.ordinal', `${spread('p.key', 24)} % ${categoriesPerBrand}`, 'categories')},
        p.created_at, p.created_at + (${spread('p.key', 25)} % 86400000) * interval '1 millisecond'
      ${EVERY_PRODUCT}
      order by 1`,
  };
}
