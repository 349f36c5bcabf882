/**
 * `search_businesses_with_tags`: finds vendors by tags, category and free
 * text, within `radius_km` of the user (earthdistance), ranked by relevance
 * and vendor quality (response rate).
 *
 * Relevance (0–1) = 0.5 × the share of the request's terms found in the
 * vendor's tags or as whole words of its stocked products' names + 0.3 × category match + 0.2 × the best
 * trigram similarity of a term to the vendor's name. The final order also
 * weighs response rate (an unknown rate counts as 0.5) and, on ties, distance.
 *
 * @module
 */
import { z } from "zod";
import { int, latitude, longitude, text } from "@shared/contract/mod.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { stockWord } from "@shared/capabilities/ordering/product_terms.ts";

const STOP_WORDS = new Set([
  "the",
  "and",
  "for",
  "you",
  "have",
  "need",
  "want",
  "looking",
  "please",
  "any",
  "with",
  "some",
  "nde",
  "ndashaka",
  "nshaka",
  "mfite",
  "murakoze",
  "je",
  "cherche",
  "veux",
  "des",
  "une",
  "pour",
  "avez",
  "vous",
  "est",
  "who",
  "has",
  "where",
  "can",
  "get",
  "buy",
  "sell",
  "near",
  "cheap",
  // Small words of a request that name nothing sold (en, fr, rw), kept out of the terms so they
  // neither match a product nor dilute the share of terms found.
  "do",
  "does",
  "one",
  "under",
  "less",
  "than",
  "du",
  "de",
  "la",
  "le",
  "les",
  "un",
  "pas",
  "cher",
  "moins",
  "munsi",
]);

/**
 * Lower-case search terms from free text and tags, without stop words; a word typed in French or
 * Kinyarwanda that the product table knows comes with the stock's word ("chargeur" → "charger"),
 * as vendors' tags are English.
 */
export function searchTerms(queryText: string | undefined, tags: readonly string[] = []): string[] {
  const words = (queryText ?? "").toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
    .split(/[^a-z0-9]+/).filter((word) => word.length >= 2 && !STOP_WORDS.has(word))
    .flatMap((word) => {
      const stock = stockWord(word);
      return stock === null || stock === word ? [word] : [word, stock];
    });
  return [...new Set([...tags.map((tag) => tag.toLowerCase().trim()).filter(Boolean), ...words])]
    .slice(0, 12);
}

// A term without its plural "s", as a regular expression matching it literally: a tag reaches
// here as written ("c++", "usb-c"), and its punctuation must not be read as a pattern.
function stemPattern(term: string): string {
  return term.replace(/s$/, "").replace(/[\\^$.|?*+()[\]{}]/g, "\\$&");
}

const input = z.object({
  query_text: text({ max: 300 }).optional().describe("What the user asked for."),
  tags: z.array(text({ min: 1, max: 40 })).max(10).optional(),
  category: text({ max: 40 }).optional(),
  user_lat: latitude().optional(),
  user_lng: longitude().optional(),
  radius_km: z.number().positive().max(100).default(10),
  limit: int({ min: 1, max: 20 }).default(10),
}).refine((args) => (args.user_lat === undefined) === (args.user_lng === undefined), {
  message: "give both user_lat and user_lng, or neither",
  path: ["user_lng"],
});

const business = z.object({
  id: z.uuid(),
  name: z.string(),
  category: z.string(),
  address: z.string().optional(),
  phone: z.string().optional(),
  owner_whatsapp: z.string().optional(),
  tags: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()).optional(),
  distance_km: z.number().optional(),
  relevance_score: z.number(),
  response_rate: z.number().optional(),
  response_time_avg_sec: z.number().optional(),
});

const SEARCH_SQL = `
  with candidates as (
    select b.*,
      case when $4::float8 is not null and b.lat is not null then
        earth_distance(ll_to_earth($4::float8, $5::float8), ll_to_earth(b.lat, b.lng)) / 1000
      end as distance_km,
      (select count(*) from unnest($1::text[], $8::text[]) as t(term, stem)
        where term = any(b.tags) or regexp_replace(term, 's$', '') = any(b.tags)
           -- A whole word of the product's name, singular or plural: never a part of a word
           -- ("pas" is not in "passion juice"). The stem comes escaped (stemPattern).
           or exists (select 1 from public.products p
                      where p.business_id = b.id and p.is_available
                        and p.name ~* ('\\m' || t.stem || 's?\\M'))
      ) as matched_terms,
      coalesce((select max(word_similarity(term, b.name)) from unnest($1::text[]) term), 0)
        as name_similarity
    from public.businesses b
    where b.is_active and b.org_id = $7
  ), scored as (
    select c.*,
      least(1.0,
        0.5 * (matched_terms::float8 / greatest(cardinality($1::text[]), 1))
        + case when $2::text is not null and c.category = $2 then 0.3 else 0 end
        + 0.2 * name_similarity) as relevance
    from candidates c
    where ($4::float8 is null or c.distance_km is null or c.distance_km <= $6)
  )
  select id, name, category, address, phone, owner_whatsapp, tags, distance_km,
         round(relevance::numeric, 3)::float8 as relevance_score,
         response_rate, response_time_avg_sec
  from scored
  where (cardinality($1::text[]) = 0 and $2::text is null)
     or (cardinality($1::text[]) > 0 and (matched_terms > 0 or name_similarity >= 0.5))
     or ($2::text is not null and category = $2)
  order by relevance * 0.8 + coalesce(response_rate, 0.5) * 0.2 desc,
           distance_km asc nulls last, name
  limit $3`;

/** The `search_businesses_with_tags` tool. */
export const searchBusinessesWithTags = defineTool({
  name: "search_businesses_with_tags",
  title: "Find vendors",
  description: "Find nearby vendors for what the user wants, by tags, category and free text, " +
    "ranked by relevance and how reliably the vendor answers.",
  category: "buy_sell",
  input,
  output: z.array(business),
  examples: [{
    description: "A used HP laptop near the city centre",
    input: { query_text: "used hp laptop", user_lat: -1.9441, user_lng: 30.0619, radius_km: 10 },
  }],
  sideEffects: "none",
  auth: "user",
  latencyBudgetMs: 400,
  async execute(args, ctx) {
    const terms = searchTerms(args.query_text, args.tags);
    const rows = await ctx.db.query<Record<string, unknown>>(SEARCH_SQL, [
      terms,
      args.category?.toLowerCase() ?? null,
      args.limit,
      args.user_lat ?? null,
      args.user_lng ?? null,
      args.radius_km,
      ctx.org_id,
      terms.map(stemPattern),
    ]);
    return rows.map((row) =>
      compact({
        ...row,
        distance_km: row.distance_km == null ? undefined : round(Number(row.distance_km), 2),
      }) as z.input<typeof business>
    );
  },
});

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

// Optional fields are absent rather than null in the contract.
function compact<T extends Record<string, unknown>>(row: T): T {
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value != null)) as T;
}
