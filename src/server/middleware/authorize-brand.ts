import type { Context } from 'koa';
import { ApiError } from '../../engine/request/api-error.ts';
import type { KeyGrant } from '../auth/api-keys.ts';
import { keyRefused } from '../auth/key-refusal.ts';

/** The brand of the path must exist (404) and be one the key may read (401). */
export function authorizeBrand(ctx: Context): void {
  const grant = ctx.state.grant as KeyGrant;
  if (!grant.brand) throw new ApiError({ errorCode: 'not_found', message: 'No brand with this slug.' });
  if (!grant.allowed) throw keyRefused('brand_not_allowed');
  ctx.state.brand = grant.brand;
}
