/**
 * A workspace's target profile: which of the panel's stores are its visible accounts. Every
 * bound is optional; a workspace without a profile sees every store.
 */
import { z } from 'zod';

export const Profile = z.strictObject({
  countries: z.array(z.string().min(1)).min(1).optional().describe('ISO 3166-1 alpha-2 codes; stores of other (or unknown) countries are not visible'),
  categories: z.array(z.string().min(1)).min(1).optional().describe('Panel categories, compared exactly'),
  plans: z.array(z.string().min(1)).min(1).optional(),
  min_visits: z.number().int().nonnegative().optional(),
  max_visits: z.number().int().nonnegative().optional(),
  min_revenue_usd: z.number().nonnegative().optional(),
  max_revenue_usd: z.number().nonnegative().optional(),
  min_products: z.number().int().nonnegative().optional(),
  max_products: z.number().int().nonnegative().optional(),
});

export type Profile = z.output<typeof Profile>;

/** What the profile reads of a store (its latest month). */
export interface ProfileFeatures {
  country: string | null;
  category: string | null;
  plan: string | null;
  monthly_visits: number | null;
  est_monthly_revenue_usd: number | null;
  product_count: number | null;
}

/** A store with an unknown value never passes a bound on that value. */
export function matchesProfile(p: Profile | null, s: ProfileFeatures): boolean {
  if (!p) return true;
  const inList = (list: readonly string[] | undefined, v: string | null) => !list || (v !== null && list.includes(v));
  const inRange = (v: number | null, min: number | undefined, max: number | undefined) =>
    (min === undefined && max === undefined) || (v !== null && (min === undefined || v >= min) && (max === undefined || v <= max));
  return (
    inList(p.countries, s.country) &&
    inList(p.categories, s.category) &&
    inList(p.plans, s.plan) &&
    inRange(s.monthly_visits, p.min_visits, p.max_visits) &&
    inRange(s.est_monthly_revenue_usd, p.min_revenue_usd, p.max_revenue_usd) &&
    inRange(s.product_count, p.min_products, p.max_products)
  );
}
