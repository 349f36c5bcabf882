/**
 * What a video brief may not say. A clip's length and resolution are the
 * job's parameters (`params.seconds`, `params.size`): a brief that states
 * them ("a 10 second clip", "in 4K", "1080p", "vertical 9:16", "amasegonda
 * 10", "dix secondes") is refused with the reason, in en, rw and fr, since
 * the provider would either ignore the words or fight the parameters. And
 * colours written as hex codes must be within the tenant's palette.
 *
 * @module
 */

/** A stated length or resolution a brief may not carry. */
export interface StatedFormat {
  /** Which parameter it belongs to. */
  kind: "length" | "resolution";
  /** The words found, as written. */
  phrase: string;
}

const NUMBER_WORDS = [
  // en
  "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|" +
  "fifty|sixty|ninety",
  // fr
  "une?|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze|quinze|vingt|trente|" +
  "quarante|cinquante|soixante",
].join("|");

// Units of time in en, fr and rw (amasegonda/isegonda: seconds; umunota/iminota: minutes).
const TIME_UNITS = "s|secs?|seconds?|secondes?|sec\\.|mins?|minutes?|amasegonda|isegonda|" +
  "umunota|iminota";

const LENGTH_PATTERNS: RegExp[] = [
  // "10 seconds", "10s", "10-second", "12 sec", "1 minute", "dix secondes", "ten-second"
  new RegExp(
    `(?<![\\p{L}\\d])(\\d{1,3}(?:[.,]\\d+)?|${NUMBER_WORDS})[\\s-]*(${TIME_UNITS})(?![\\p{L}])`,
    "iu",
  ),
  // Kinyarwanda puts the unit first: "amasegonda 10", "iminota ibiri", "isegonda rimwe"
  /(?<![\p{L}])(amasegonda|isegonda|iminota|umunota)\s+(\d+|icumi|cumi|rimwe|abiri|atatu|ane|atanu|atandatu|umunani|icyenda|umwe|ibiri|itatu|ine|itanu)(?![\p{L}])/iu,
  // "clip length", "durée de", "duration", "uburebure bw'amashusho"
  /(?<![\p{L}])(clip length|video length|duration|durée|uburebure bw['’]amashusho)(?![\p{L}])/iu,
];

const RESOLUTION_PATTERNS: RegExp[] = [
  // 4K, 8K, 2K, 1080p, 720p, 2160p, full HD, UHD
  /(?<![\p{L}\d])([248]k|(?:360|480|720|1080|1440|2160)p|full[\s-]?hd|ultra[\s-]?hd|uhd|qhd)(?![\p{L}\d])/iu,
  // 1920x1080, 1280 × 720
  /(?<![\p{L}\d])(\d{3,4}\s*[x×]\s*\d{3,4})(?![\p{L}\d])/iu,
  // 9:16, 16:9, 1:1, 4:3 — an aspect ratio is the size's
  /(?<![\d:])(9:16|16:9|1:1|4:3|3:4|21:9|4:5)(?![\d:])/u,
  // "vertical video", "portrait format", "landscape mode", "widescreen"
  /(?<![\p{L}])((?:vertical|horizontal|portrait|landscape|square)\s+(?:video|format|mode|clip|orientation|aspect)|widescreen)(?![\p{L}])/iu,
  // "vidéo verticale", "format portrait", "en mode paysage"
  /(?<![\p{L}])((?:vidéo|video|format|mode)\s+(?:verticale?|horizontale?|portrait|paysage|carrée?))(?![\p{L}])/iu,
  // "résolution", "resolution", "ubwiza bw'amashusho"? — the word itself names the parameter
  /(?<![\p{L}])(r[ée]solution)(?![\p{L}])/iu,
  // rw: "ihagaze" (standing: vertical) / "itambitse" (lying: horizontal) said of the video
  /(?<![\p{L}])((?:amashusho|videwo|video)\s+(?:ihagaze|itambitse|ahagaze|atambitse))(?![\p{L}])/iu,
];

/**
 * The first length or resolution a text states, or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { statedFormat } from "./prompt_rules.ts";
 *
 * assert.deepEqual(statedFormat("A 10 second clip of a moto at dawn"), {
 *   kind: "length",
 *   phrase: "10 second",
 * });
 * assert.equal(statedFormat("A moto crosses Nyabugogo at dawn"), null);
 * ```
 */
export function statedFormat(text: string): StatedFormat | null {
  for (const pattern of LENGTH_PATTERNS) {
    const match = pattern.exec(text);
    if (match) return { kind: "length", phrase: match[0].trim() };
  }
  for (const pattern of RESOLUTION_PATTERNS) {
    const match = pattern.exec(text);
    if (match) return { kind: "resolution", phrase: match[0].trim() };
  }
  return null;
}

/** The reason a stated format is refused, naming the parameter to use instead. */
export function statedFormatReason(found: StatedFormat): string {
  return found.kind === "length"
    ? `states a clip length ("${found.phrase}"): length is a parameter only, set params.seconds (4, 8 or 12)`
    : `states a resolution or format ("${found.phrase}"): size is a parameter only, set params.size`;
}

/** The hex colours (`#RRGGBB`, upper-cased) a text names, in order, without repeats. */
export function hexColours(text: string): string[] {
  const found = text.match(/#[0-9a-f]{6}(?![0-9a-f])/gi) ?? [];
  return [...new Set(found.map((colour) => colour.toUpperCase()))];
}
