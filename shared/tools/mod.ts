/**
 * The platform's generic tools, which serve every pack: `search_supabase`
 * (reads over the tables the packs declare), `analytics_log` and
 * `generate_pdf` (documents from registered templates, kept in Storage). The
 * composition root builds them with the packs' tables.
 *
 * @module
 */
export { analyticsLog } from "./analytics_log.ts";
export { createGeneratePdf, type GeneratePdfOptions } from "./generate_pdf.ts";
export { buildSearchQuery, createSearchSupabase, type SearchArgs } from "./search_supabase.ts";
