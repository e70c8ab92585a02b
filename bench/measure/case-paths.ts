import { API_BASE_PATH } from '../../src/server/http/api-base-path.ts';
import { FLOOR_PREFIX } from '../floors/floor-app.ts';
import type { BrandRef, Walk } from './case-shapes.ts';

/** The paths a case asks the server and the floor for the big or small brand's products, and what the cases build them from. */

/** A product list of a brand on the server, with the query given. */
export const serverList = (brand: BrandRef, query: Record<string, string>): string =>
  `${API_BASE_PATH}/brands/${brand.slug}/products?${new URLSearchParams(query).toString()}`;
export const floorList = (brand: BrandRef, query: Record<string, string>): string =>
  `${FLOOR_PREFIX}/products/${brand.id}?${new URLSearchParams(query).toString()}`;

export const serverCounts = (brand: BrandRef, query: Record<string, string>): string =>
  `${API_BASE_PATH}/brands/${brand.slug}/products/counts?${new URLSearchParams(query).toString()}`;
export const floorCounts = (brand: BrandRef, query: Record<string, string>): string =>
  `${FLOOR_PREFIX}/products/${brand.id}/counts?${new URLSearchParams(query).toString()}`;

/** An exact filter given several times, as the server takes it: `status=a&status=b`. */
export const anyOf = (name: string, values: readonly string[]): [string, string][] => values.map((value) => [name, value]);
export const serverListOf = (brand: BrandRef, pairs: [string, string][]): string =>
  `${API_BASE_PATH}/brands/${brand.slug}/products?${new URLSearchParams(pairs).toString()}`;
export const floorListOf = (brand: BrandRef, pairs: [string, string][]): string =>
  `${FLOOR_PREFIX}/products/${brand.id}?${new URLSearchParams(pairs).toString()}`;

export function needed<T>(position: T | null, walk: Walk): T {
  if (position === null) throw new Error(`the case needs the walk to the deep page (${walk})`);
  return position;
}

/** The deep page's number, for a title. */
export const deepPageOf = (position: { page: number } | null): string => (position === null ? '?' : String(position.page));
