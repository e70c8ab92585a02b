import { DATA_SHAPE, type LoadedTable } from './data-shape.ts';
import { brandId, childKey, ordersOf, pick, productKey, smallId, spread, spreadOverSpan, uid } from './data-set-expressions.ts';

/** Every brand's orders, and their lines; a line computes the ids of the product, colourway and size it points at itself. */
export function orderInserts(): Readonly<Record<Extract<LoadedTable, 'orders' | 'order_items'>, string>> {
  const { suppliersPerBrand, itemsPerOrder } = DATA_SHAPE;
  const order = `cross join lateral (select ${productKey('b.ordinal', 'm')} as key,
        ${spreadOverSpan('b.ordinal', 'm', ordersOf('b.product_count'))} as created_at) o`;
  const line = childKey('o.key', 'line');
  return {
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
