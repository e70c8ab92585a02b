import type { Context } from 'koa';
import type { CompiledResource } from '../../engine/compile/compile-registry.ts';
import type { KeyGrant, KeyRestriction } from '../auth/api-keys.ts';
import { keyRefused } from '../auth/key-refusal.ts';

/**
 * The family of the path, and every family the request asks to include,
 * must be one a restricted key may read (CONTRACT.md §4): 401
 * `family_not_allowed` otherwise, after the brand's check and before the
 * parameters'. Never a quietly smaller answer: an include the key may not
 * read refuses the request. The restriction came with the cached grant, so
 * the check asks the database nothing. The brand's own record
 * (`GET /brands/{brand}`) is open to every key of the brand. An include name
 * the family does not have is left to the parameters' check (400).
 */
export function authorizeFamily({ families }: { families: ReadonlyMap<string, CompiledResource> }): (ctx: Context) => void {
  const allows = (restriction: KeyRestriction, path: string): boolean =>
    restriction.families.has(path) || restriction.areas.has(families.get(path)!.resource.area);
  return (ctx) => {
    const { restriction } = ctx.state.grant as KeyGrant;
    if (restriction === null) return;
    const family = families.get(ctx.state.family as string);
    if (!family || family.resource.scope === 'tenant') return;
    if (!allows(restriction, family.resource.path)) throw keyRefused('family_not_allowed', `It may not read ${family.resource.path}.`);
    const include = ctx.query.include;
    for (const text of Array.isArray(include) ? include : include === undefined ? [] : [include]) {
      for (const name of text.split(',')) {
        const asked = family.includesByName.get(name.trim());
        if (asked && !allows(restriction, asked.resource)) {
          throw keyRefused('family_not_allowed', `It may not read ${asked.resource}, asked as the include ${name.trim()}.`);
        }
      }
    }
  };
}
