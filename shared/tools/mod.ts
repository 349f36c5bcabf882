/**
 * The platform's generic tools, which serve every pack: `search_supabase`
 * (reads over the tables the packs declare) and `analytics_log`. The
 * composition root builds them with the packs' tables.
 *
 * @module
 */
export { analyticsLog } from "./analytics_log.ts";
export { buildSearchQuery, createSearchSupabase, type SearchArgs } from "./search_supabase.ts";
