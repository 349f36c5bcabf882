/**
 * Ids of the rows in `supabase/seed.sql`, for tests.
 *
 * @module
 */

/** Seeded orgs. */
export const ORG = {
  easymo: "a0000000-0000-4000-8000-000000000001",
  beaver: "b0000000-0000-4000-8000-000000000002",
} as const;

/** Seeded users. */
export const USER = {
  /** EasyMO customer. */
  aline: "00000000-0000-4000-8000-000000000001",
  /** EasyMO staff. */
  jean: "00000000-0000-4000-8000-000000000002",
  /** EasyMO admin. */
  grace: "00000000-0000-4000-8000-000000000003",
  /** EasyMO vendor (pharmacy owner). */
  eric: "00000000-0000-4000-8000-000000000004",
  /** Beaver staff. */
  paul: "00000000-0000-4000-8000-000000000010",
  /** Beaver customer. */
  nina: "00000000-0000-4000-8000-000000000011",
} as const;

/** The video studio's seeded rows (EasyMO). */
export const VIDEO = {
  /** EasyMO's brand kit, within Rwanda's palette. */
  brandKit: "f1000000-0000-4000-8000-000000000001",
  /** A recorded consent: a model who appears in reference photos. */
  consent: "f2000000-0000-4000-8000-000000000001",
} as const;
