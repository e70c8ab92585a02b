/**
 * The size of a benchmark data set, and how its products are spread over
 * brands: the first brand is the big one, the others ramp linearly from a
 * small brand (about 0.3 of their mean) to a large one, so the data set has a
 * big, a medium and a small brand at every scale.
 */
export interface Scale {
  readonly products: number;
  /** Brands, the big one included. */
  readonly brands: number;
  /** Products of the largest brand. */
  readonly bigBrand: number;
}

export interface BrandPlan {
  /** 1 for the big brand. */
  readonly ordinal: number;
  readonly slug: string;
  readonly name: string;
  readonly productCount: number;
}

/** Products of the smallest brand as a share of the other brands' mean. */
const SMALLEST_SHARE = 0.3;

export const DEFAULT_SCALE: Scale = Object.freeze({ products: 1_000_000, brands: 200, bigBrand: 200_000 });

/** Why a scale cannot be planned, or null when it can. */
export function scaleProblem({ products, brands, bigBrand }: Scale): string | null {
  if (![products, brands, bigBrand].every((n) => Number.isSafeInteger(n) && n > 0)) return 'products, brands and big brand must be positive whole numbers';
  if (brands < 2) return 'at least 2 brands are needed (a big one and a small one)';
  if (bigBrand >= products) return 'the big brand must hold fewer products than there are in all';
  if (products - bigBrand < brands - 1) return 'every brand but the big one needs at least one product';
  return null;
}

export function brandSlug(ordinal: number): string {
  return `brand-${String(ordinal).padStart(3, '0')}`;
}

/** Every brand and its product count; the counts add up to `scale.products`. */
export function planBrands(scale: Scale): BrandPlan[] {
  const problem = scaleProblem(scale);
  if (problem) throw new Error(problem);
  const others = scale.brands - 1;
  const rest = scale.products - scale.bigBrand;
  const mean = rest / others;
  const smallest = Math.max(1, Math.round(mean * SMALLEST_SHARE));
  const largest = 2 * mean - smallest;
  const counts = [scale.bigBrand];
  let assigned = 0;
  for (let i = 1; i <= others; i++) {
    // Rounded on the running total of the ramp, so the counts add up exactly; none is below 1.
    const upTo = i === others ? rest : Math.max(assigned + 1, Math.round(rampTotal({ first: smallest, last: largest, count: others, n: i })));
    counts.push(upTo - assigned);
    assigned = upTo;
  }
  return counts.map((productCount, index) => ({
    ordinal: index + 1,
    slug: brandSlug(index + 1),
    name: `Brand ${String(index + 1).padStart(3, '0')}`,
    productCount,
  }));
}

/** Sum of the first `n` sizes of a linear ramp of `count` sizes from `first` to `last`. */
function rampTotal({ first, last, count, n }: { first: number; last: number; count: number; n: number }): number {
  if (count === 1) return first * n;
  const step = (last - first) / (count - 1);
  return n * first + (step * n * (n - 1)) / 2;
}

/** The brands the cases read: the big one, the smallest, and the one in the middle. */
export function pickBrands(plan: readonly BrandPlan[]): { big: BrandPlan; small: BrandPlan; medium: BrandPlan } {
  const others = plan.slice(1);
  const bySize = [...others].sort((a, b) => a.productCount - b.productCount || a.ordinal - b.ordinal);
  return { big: plan[0]!, small: bySize[0]!, medium: bySize[Math.floor(bySize.length / 2)]! };
}

/** A short name of the scale, for the database and the result files: `p1000000-b200-g200000`. */
export function scaleName({ products, brands, bigBrand }: Scale): string {
  return `p${products}-b${brands}-g${bigBrand}`;
}
