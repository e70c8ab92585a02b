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

/** The word the search case looks for: in about one product name in 30. */
export const SEARCH_WORD = 'parka';

/** Each table's number in `bench_uid`, so two tables never derive the same id. */
export const TABLE_NUMBER = Object.freeze({
  brands: 1, categories: 2, colors: 3, suppliers: 4, products: 5, product_options: 6, skus: 7, orders: 8, order_items: 9,
});

export type LoadedTable = keyof typeof TABLE_NUMBER;

/** The tables the data set fills. */
export const LOADED_TABLES = Object.freeze(Object.keys(TABLE_NUMBER)) as readonly LoadedTable[];

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
