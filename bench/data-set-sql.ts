/**
 * The benchmark's data set as server-side SQL: one `insert ... select ...
 * from generate_series(...)` per table, rows generated and sorted inside
 * Postgres, none sent from Node.
 *
 * Every id is a function of a number (`bench_uid(key, table)`), and a child's
 * key is a function of its parent's: a SKU's statement computes its product
 * and colourway ids itself instead of reading those tables, so the statements
 * do not wait on each other and run side by side. Rows are inserted in id
 * order (ids look random, like `gen_random_uuid()`): the primary key grows at
 * its end, and a brand's rows are scattered over the table as in a table
 * filled over years.
 */

/**
 * How many linked rows each parent gets. Every other product of a brand (its
 * odd-numbered ones) is approved and has colourways and sizes; the others are
 * in development, sampling or discontinued, and have none. That keeps the SKU
 * tables, whose ten indexes make theirs the dearest rows to load, near one row
 * per product, so a million products load in well under a minute.
 */
export const DATA_SHAPE = Object.freeze({
  categoriesPerBrand: 8,
  colorsPerBrand: 12,
  suppliersPerBrand: 5,
  /** Colourways of every approved product. */
  optionsPerApprovedProduct: 1,
  /** Sizes (SKUs) of every colourway. */
  skusPerOption: 2,
  /** A brand has one order per this many products (at least one). */
  productsPerOrder: 25,
  itemsPerOrder: 3,
});

/** The status of every odd-numbered product: about half of every brand. The filtered cases ask for it. */
export const COMMON_STATUS = 'approved';

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
/** The word the search case looks for: in about one product name in 30. */
export const SEARCH_WORD = 'parka';

const CATEGORIES = ['Tops', 'Bottoms', 'Outerwear', 'Knitwear', 'Dresses', 'Footwear', 'Accessories', 'Underwear'];
const COLORS = ['Navy', 'Oat', 'Forest', 'Black', 'White', 'Stone', 'Rust', 'Sky', 'Olive', 'Charcoal', 'Sand', 'Berry'];
const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];

/** Rows start here and spread over three years. */
const START = `timestamptz '2023-01-01 00:00:00+00'`;
const SPAN = `interval '1095 days'`;

/** Each table's number in `bench_uid`, so two tables never derive the same id. */
const TABLE_NUMBER = Object.freeze({
  brands: 1, categories: 2, colors: 3, suppliers: 4, products: 5, product_options: 6, skus: 7, orders: 8, order_items: 9,
});

export type LoadedTable = keyof typeof TABLE_NUMBER;

/** The tables the data set fills. */
export const LOADED_TABLES = Object.freeze(Object.keys(TABLE_NUMBER)) as readonly LoadedTable[];

const textArray = (values: readonly string[]): string => `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]`;
/** `values[n mod length]` for a non-negative integer expression `n`. */
const pick = (values: readonly string[], n: string): string => `(${textArray(values)})[1 + (${n}) % ${values.length}]`;
const uid = (key: string, table: LoadedTable): string => `bench_uid(${key}, ${TABLE_NUMBER[table]})`;
/** A well-spread non-negative number from a key, a different one for each `salt`. */
const spread = (key: string, salt: number): string => `(hashint8extended(${key}, ${salt}) & 9223372036854775807)`;

/** A product's key is (brand ordinal, its number k in the brand); a child's is its parent's times 8 plus its own number. */
const productKey = (ordinal: string, k: string): string => `((${ordinal})::bigint << 32 | (${k}))`;
const childKey = (parent: string, n: string): string => `(${parent} * 8 + (${n}))`;
const productCode = (ordinal: string, k: string): string => `'B' || lpad((${ordinal})::text, 3, '0') || '-' || lpad((${k})::text, 6, '0')`;
/** Evenly over the span, a brand's k-th of `count`; the brand's ordinal in milliseconds keeps brands apart. */
const spreadOverSpan = (ordinal: string, k: string, count: string): string =>
  `(${START} + ((${k}) - 1) * (${SPAN} / (${count})) + (${ordinal}) * interval '1 millisecond')`;
const ordersOf = (count: string): string => `greatest(1, ceil((${count})::numeric / ${DATA_SHAPE.productsPerOrder})::int)`;

/** Products of a brand of `count` that are approved (its odd-numbered ones). */
const approvedOf = (count: number): number => Math.ceil(count / 2);

/** Rows each table gets for these brands. */
export function expectedRows(brands: readonly { productCount: number }[]): Readonly<Record<LoadedTable, number>> {
  const { categoriesPerBrand, colorsPerBrand, suppliersPerBrand, optionsPerApprovedProduct, skusPerOption, productsPerOrder, itemsPerOrder } = DATA_SHAPE;
  const sum = (of: (count: number) => number): number => brands.reduce((total, brand) => total + of(brand.productCount), 0);
  const approved = sum(approvedOf);
  const orders = sum((count) => Math.max(1, Math.ceil(count / productsPerOrder)));
  return {
    brands: brands.length,
    categories: brands.length * categoriesPerBrand,
    colors: brands.length * colorsPerBrand,
    suppliers: brands.length * suppliersPerBrand,
    products: sum((count) => count),
    product_options: approved * optionsPerApprovedProduct,
    skus: approved * optionsPerApprovedProduct * skusPerOption,
    orders,
    order_items: orders * itemsPerOrder,
  };
}

/** Statements that prepare the helpers every insert uses: the id function and the brand plan table. */
export const SETUP_STATEMENTS = Object.freeze([
  // 128 bits from two 64-bit hashes of the key's text, shaped as a UUID; inlined by the planner.
  // (hashint8extended folds a key to 32 bits first: keys past 2^32 would collide.)
  `create or replace function bench_uid(key bigint, tab int) returns uuid language sql immutable parallel safe as
    $$ select (lpad(to_hex(hashtextextended(key::text, tab)), 16, '0') || lpad(to_hex(hashtextextended(key::text, tab + 1000)), 16, '0'))::uuid $$`,
  `create table bench_brands (ordinal int primary key, slug text not null, name text not null, product_count int not null)`,
]);

/** Fills `bench_brands` from the plan: `$1` ordinals, `$2` slugs, `$3` names, `$4` product counts. */
export const INSERT_BRAND_PLAN = `insert into bench_brands (ordinal, slug, name, product_count)
  select * from unnest($1::int[], $2::text[], $3::text[], $4::int[])`;

/** One statement per table. */
export function insertStatements(): Readonly<Record<LoadedTable, string>> {
  const { categoriesPerBrand, colorsPerBrand, suppliersPerBrand, optionsPerApprovedProduct, skusPerOption, itemsPerOrder } = DATA_SHAPE;
  const brandId = (ordinal: string): string => uid(`(${ordinal})::bigint`, 'brands');
  const smallId = (ordinal: string, n: string, table: 'categories' | 'colors' | 'suppliers'): string => uid(`(${ordinal})::bigint * 64 + (${n})`, table);
  let bound = 0;
  const otherStatus = `case ${OTHER_STATUSES.map(({ status, percent }) => {
    bound += percent;
    return `when ${spread('p.key', 11)} % 100 < ${bound} then '${status}'`;
  }).join(' ')} end`;
  const product = `cross join lateral (select ${productKey('b.ordinal', 'k')} as key, ${spreadOverSpan('b.ordinal', 'k', 'b.product_count')} as created_at) p`;
  const everyProduct = `from bench_brands b cross join lateral generate_series(1, b.product_count) k ${product}`;
  // The odd-numbered products, 1, 3, 5, ...: the approved ones.
  const approvedProducts = `from bench_brands b cross join lateral generate_series(1, b.product_count, 2) k ${product}`;
  const colorOf = `((${spread('p.key', 32)} + j) % ${colorsPerBrand})`;
  const option = childKey('p.key', 'j');
  const sku = childKey(option, 's');
  const order = `cross join lateral (select ${productKey('b.ordinal', 'm')} as key,
        ${spreadOverSpan('b.ordinal', 'm', ordersOf('b.product_count'))} as created_at) o`;
  const line = childKey('o.key', 'line');
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
        case when k % 2 = 1 then '${COMMON_STATUS}' else ${otherStatus} end,
        ${smallId('b.ordinal', `${spread('p.key', 24)} % ${categoriesPerBrand}`, 'categories')},
        p.created_at, p.created_at + (${spread('p.key', 25)} % 86400000) * interval '1 millisecond'
      ${everyProduct}
      order by 1`,

    product_options: `insert into product_options (id, brand_id, product_id, color_id, code, name, status, created_at, updated_at)
      select ${uid(option, 'product_options')}, ${brandId('b.ordinal')}, ${uid('p.key', 'products')},
        ${smallId('b.ordinal', colorOf, 'colors')}, 'C' || lpad(${colorOf}::text, 2, '0'), ${pick(COLORS, colorOf)},
        case when ${spread(option, 31)} % 10 < 8 then 'active' else 'draft' end,
        p.created_at + j * interval '1 second', p.created_at + j * interval '1 second'
      ${approvedProducts}
      cross join generate_series(1, ${optionsPerApprovedProduct}) j
      order by 1`,

    skus: `insert into skus (id, brand_id, product_id, product_option_id, code, barcode, status, created_at, updated_at)
      select ${uid(sku, 'skus')}, ${brandId('b.ordinal')}, ${uid('p.key', 'products')}, ${uid(option, 'product_options')},
        ${productCode('b.ordinal', 'k')} || '-C' || lpad(${colorOf}::text, 2, '0') || '-' || ${pick(SIZES, 's - 1')},
        lpad(b.ordinal::text, 4, '0') || lpad(((k * 8 + j) * 8 + s)::text, 10, '0'),
        case when ${spread(sku, 41)} % 10 < 9 then 'active' else 'discontinued' end,
        p.created_at + j * interval '1 second' + s * interval '10 milliseconds',
        p.created_at + j * interval '1 second' + s * interval '10 milliseconds'
      ${approvedProducts}
      cross join generate_series(1, ${optionsPerApprovedProduct}) j
      cross join generate_series(1, ${skusPerOption}) s
      order by 1`,

    orders: `insert into orders (id, brand_id, supplier_id, code, status, currency, ordered_on, requested_delivery_on, incoterm, total_amount, created_at, updated_at)
      select ${uid('o.key', 'orders')}, ${brandId('b.ordinal')}, ${smallId('b.ordinal', `m % ${suppliersPerBrand}`, 'suppliers')},
        'PO-' || lpad(b.ordinal::text, 3, '0') || '-' || lpad(m::text, 6, '0'),
        ${pick(['issued', 'confirmed', 'in_production', 'shipped', 'closed'], spread('o.key', 51))}, 'EUR',
        (o.created_at at time zone 'UTC')::date, (o.created_at at time zone 'UTC')::date + 90, 'FOB',
        ((${spread('o.key', 52)} % 5000000) / 100.0)::numeric(12, 2), o.created_at, o.created_at + interval '2 days'
      from bench_brands b cross join lateral generate_series(1, ${ordersOf('b.product_count')}) m
      ${order}
      order by 1`,

    // Each line points at an approved product of the brand (spread by a prime step), its first colourway and first size.
    order_items: `insert into order_items (id, brand_id, order_id, product_id, product_option_id, sku_id, line_number, quantity, unit_price, currency, status, created_at, updated_at)
      select ${uid(line, 'order_items')}, ${brandId('b.ordinal')}, ${uid('o.key', 'orders')},
        ${uid('i.product', 'products')}, ${uid(childKey('i.product', '1'), 'product_options')}, ${uid(childKey(childKey('i.product', '1'), '1'), 'skus')},
        line, 50 + (${spread(line, 61)} % 20) * 50, ((500 + ${spread(line, 62)} % 9500) / 100.0)::numeric(12, 2), 'EUR',
        ${pick(['open', 'confirmed', 'shipped', 'received'], spread(line, 63))},
        o.created_at + line * interval '1 second', o.created_at + line * interval '1 second'
      from bench_brands b cross join lateral generate_series(1, ${ordersOf('b.product_count')}) m
      cross join generate_series(1, ${itemsPerOrder}) line
      ${order}
      cross join lateral (select ${productKey('b.ordinal', `2 * ((((m - 1) * ${itemsPerOrder} + line - 1)::bigint * 7919) % ((b.product_count + 1) / 2)) + 1`)} as product) i
      order by 1`,
  };
}
