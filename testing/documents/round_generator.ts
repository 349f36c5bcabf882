/**
 * What the later rounds' layout modules (`layouts_sixth.ts`,
 * `layouts_seventh.ts`, `layouts_eighth.ts`, and the earlier rounds'
 * renderers in `layouts.ts`) share: the draws of a card's values (vehicle,
 * plate, VIN, holder, numbers, dates), how a value must read, the months
 * dates are written with, leaving optional fields out, and the card's chrome
 * (the republic's header, the page around the card); and what the image-side
 * rounds (`layouts_image_stress*.ts`) share: a card's look and fields
 * (`drawStressCard`) and its page (`stressPage`); and the draws the ninth and
 * tenth rounds share (a day, a VIN, one optional field left out, the answer
 * key). Each round keeps its own people, places, vehicles, layouts, label
 * wordings, titles and date formats.
 *
 * The draws are made in the order the rounds made them when their sets were
 * generated: a change here changes published sets' pages, which
 * `fixture_hashes_test.ts` refuses.
 *
 * This module imports nothing from the layout modules, so none of them
 * forms an import cycle through it. Every value is drawn from a seeded
 * generator: no real person's data.
 *
 * @module
 */
import { vinCheckDigit } from "@shared/capabilities/document_reading/document_fields.ts";
import { KINYARWANDA_MONTHS } from "@shared/capabilities/format/format.ts";
import {
  date,
  digits,
  DISTRICTS,
  escapeHtml,
  FONTS,
  fullName,
  letters,
  nationalId,
  pick,
  type Random,
  spacedId,
  type SyntheticDocument,
  vin,
} from "./synthetic.ts";

/** The languages the sixth and seventh rounds print labels in. */
export type RoundLanguage = "rw" | "fr" | "en";

/** One field of a sixth- or seventh-round card. */
export interface RoundField {
  /** Its key in the answer (null: printed, never read). */
  key: string | null;
  /** Its label per language. */
  labels: Record<RoundLanguage, string>;
  /** The value as printed before any family restyles it (dates `DD/MM/YYYY`). */
  shown: string;
  /** May be left out of a card. */
  optional?: boolean;
}

/** A printed item of a sixth- or seventh-round card: label (in the card's languages), value. */
export interface RoundItem {
  /** Its key in the answer (null: printed, never read). */
  key: string | null;
  /** Its label per language. */
  labels: Record<RoundLanguage, string>;
  /** The label as printed: the card's languages joined by " / ". */
  label: string;
  /** The value as printed. */
  shown: string;
}

/** A vehicle a registration names. */
export interface Vehicle {
  /** The make, as printed. */
  make: string;
  /** The model, as printed. */
  model: string;
  /** The VIN's world manufacturer identifier. */
  wmi: string;
}

/** How the sixth and seventh rounds print a use, per language. */
export const USAGE_PRINTED: Record<string, Record<RoundLanguage, string>> = {
  private: { rw: "BWITE", fr: "PRIVÉ", en: "PRIVATE" },
  commercial: { rw: "UBUCURUZI", fr: "COMMERCIAL", en: "COMMERCIAL" },
  taxi: { rw: "TAXI", fr: "TAXI", en: "TAXI" },
  "taxi-moto": { rw: "TAXI-MOTO", fr: "MOTO-TAXI", en: "TAXI-MOTO" },
};

/** A registration's vehicle: a motorcycle (about a third) or a car, its use, plate and holder's sex. */
export function drawVehicle(
  random: Random,
  fleet: { motos: readonly Vehicle[]; cars: readonly Vehicle[] },
): { moto: boolean; vehicle: Vehicle; usage: string; plate: string; sex: "F" | "M" } {
  const moto = random() < 0.35;
  const vehicle = pick(random, moto ? fleet.motos : fleet.cars);
  const usage = moto
    ? pick(random, ["taxi-moto", "private"])
    : pick(random, ["private", "commercial", "taxi"]);
  const plate = moto
    ? `R${letters(random, 1, "ABCDEFGH")} ${digits(random, 3)} ${letters(random, 1)}`
    : `R${letters(random, 2, "ABCDEFGH")} ${digits(random, 3)} ${letters(random, 1)}`;
  const sex = random() < 0.5 ? "F" : "M";
  return { moto, vehicle, usage, plate, sex };
}

/** The years a registration's values are drawn from (first year, and how many years on). */
export interface RegistrationYears {
  /** The year of make: `[first, count]`. */
  made: [number, number];
  /** The holder's birth year: `[first, count]`. */
  holderBorn: [number, number];
  /** The issue date's years, first and last. */
  issued: [number, number];
  /** The expiry date's years, first and last. */
  expires: [number, number];
}

/**
 * A registration's values as printed, by field key: the drawn vehicle's plate, make and model,
 * then, drawn in the order the cards print them, VIN, year, holder, holder's ID (spaced), the
 * use as printed (`usageShown` may draw), issue and expiry.
 */
export function registrationValues(
  random: Random,
  drawn: { vehicle: Vehicle; usage: string; plate: string; sex: "F" | "M" },
  years: RegistrationYears,
  usageShown: (usage: string) => string,
): Record<string, string> {
  return {
    plate: drawn.plate,
    vin: vin(random, drawn.vehicle.wmi),
    make: drawn.vehicle.make,
    model: drawn.vehicle.model,
    year: String(years.made[0] + Math.floor(random() * years.made[1])),
    owner_name: fullName(random),
    owner_national_id: spacedId(
      nationalId(
        random,
        years.holderBorn[0] + Math.floor(random() * years.holderBorn[1]),
        drawn.sex,
      ),
    ),
    usage: usageShown(drawn.usage),
    issue_date: date(random, ...years.issued).shown,
    expiry_date: date(random, ...years.expires).shown,
  };
}

/** The sixth and seventh rounds' use as printed: in a language drawn per card. */
export function usageInAnyLanguage(random: Random): (usage: string) => string {
  return (usage) => USAGE_PRINTED[usage][pick(random, ["rw", "fr", "en"] as RoundLanguage[])];
}

/**
 * A driving licence's values (the sixth and seventh rounds'): the holder, born 1965–2004, the
 * ID (spaced), a number (old style or the ID), categories, issued 2012–2025, expiring 2028–2035.
 */
export function licenceValues(random: Random): Record<string, string> {
  const sex = random() < 0.5 ? "F" : "M";
  const born = date(random, 1965, 2004);
  const year = Number(born.shown.slice(-4));
  const number = random() < 0.5
    ? `${digits(random, 2)}${letters(random, 1)}${digits(random, 6)}`
    : nationalId(random, year, sex);
  return {
    full_name: fullName(random),
    date_of_birth: born.shown,
    national_id: spacedId(nationalId(random, year, sex)),
    licence_number: number,
    categories: pick(random, ["B", "A, B", "B, C", "B, C, D", "A"]),
    issue_date: date(random, 2012, 2025).shown,
    expiry_date: date(random, 2028, 2035).shown,
  };
}

/**
 * An ID card's values (the sixth and seventh rounds'): the holder, born 1960–2006, the sex as
 * printed (`F` or `Gore / F`), the place of issue, issued 2010–2025, the ID (spaced).
 */
export function idCardValues(random: Random): Record<string, string> {
  const sex = random() < 0.5 ? "F" : "M";
  const born = date(random, 1960, 2006);
  return {
    full_name: fullName(random),
    date_of_birth: born.shown,
    sex: sex === "F" ? pick(random, ["F", "Gore / F"]) : pick(random, ["M", "Gabo / M"]),
    place_of_issue: pick(random, DISTRICTS),
    issue_date: date(random, 2010, 2025).shown,
    national_id: spacedId(nationalId(random, Number(born.shown.slice(-4)), sex)),
  };
}

/** A round's label wording: per field key, the label in each language. */
export type RoundWording = Record<string, Record<RoundLanguage, string>>;

/**
 * The fields the sixth and seventh rounds' cards read, per document type, in the order they
 * print them; a trailing `?` marks one a card may leave out.
 */
const ROUND_KEYS: Record<"vehicle_registration" | "license" | "id_card", string[]> = {
  vehicle_registration: [
    "plate",
    "vin",
    "make",
    "model",
    "year?",
    "owner_name",
    "owner_national_id?",
    "usage?",
    "issue_date",
    "expiry_date?",
  ],
  license: [
    "full_name",
    "date_of_birth",
    "national_id?",
    "licence_number",
    "categories",
    "issue_date",
    "expiry_date?",
  ],
  id_card: ["full_name", "date_of_birth", "sex", "place_of_issue?", "issue_date", "national_id"],
};

/** A sixth- or seventh-round card's read fields: each key's value with the round's wording. */
export function wordedFields(
  type: keyof typeof ROUND_KEYS,
  values: Record<string, string>,
  wording: RoundWording,
): RoundField[] {
  return ROUND_KEYS[type].map((spec) => {
    const key = spec.replace("?", "");
    const field: RoundField = { key, labels: wording[key], shown: values[key] };
    if (spec.endsWith("?")) field.optional = true;
    return field;
  });
}

/** Whether a field's key names a date (its value is printed in the card's date format). */
export function isDateKey(key: string | null): boolean {
  return key !== null && /date|birth/.test(key);
}

/**
 * What a printed value must read as (the answer's normalised form): dates ISO, IDs without
 * spaces, a sex as its letter (`Gore / F`: `F`), a use as its key in {@link USAGE_PRINTED}, the
 * rest upper-cased.
 */
export function expectedValue(key: string, shown: string): string {
  if (isDateKey(key)) {
    const [day, month, year] = shown.split("/");
    return `${year}-${month}-${day}`;
  }
  if (key === "national_id" || key === "owner_national_id") return shown.replace(/\s/g, "");
  if (key === "sex") return shown.slice(-1);
  if (key === "usage") {
    return Object.entries(USAGE_PRINTED).find(([, shownAs]) =>
      Object.values(shownAs).includes(shown)
    )![0];
  }
  return shown.toUpperCase();
}

/** Leaves out up to two optional fields: real cards and editions differ in what they print. */
export function dropOptional<T extends { optional?: boolean }>(random: Random, fields: T[]): T[] {
  let out = fields;
  for (let drop = Math.floor(random() * 3); drop > 0; drop--) {
    const optional = out.filter((field) => field.optional);
    if (optional.length === 0) break;
    const gone = pick(random, optional);
    out = out.filter((field) => field !== gone);
  }
  return out;
}

/**
 * A sixth- or seventh-round card's answer and printed items: each label in the card's
 * languages, each date in its format.
 */
export function printedFields(
  fields: RoundField[],
  languages: RoundLanguage[],
  dateAs: (shown: string) => string,
): { answer: Record<string, string>; items: RoundItem[] } {
  const answer: Record<string, string> = {};
  for (const field of fields) {
    if (field.key) answer[field.key] = expectedValue(field.key, field.shown);
  }
  const items = fields.map((field) => ({
    key: field.key,
    labels: field.labels,
    label: languages.map((language) => field.labels[language]).join(" / "),
    shown: isDateKey(field.key) ? dateAs(field.shown) : field.shown,
  }));
  return { answer, items };
}

/** Months in English, in full. */
export const MONTHS_EN: readonly string[] =
  "January February March April May June July August September October November December".split(
    " ",
  );

/** Months as three capitals (`JAN`). */
export const MONTHS_SHORT: readonly string[] = "JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC"
  .split(" ");

/** Months in French, in full. */
export const MONTHS_FR: readonly string[] =
  "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split(" ");

/** Months in Kinyarwanda (the replies' own table: ICU has none for rw). */
export const MONTHS_RW: readonly string[] = KINYARWANDA_MONTHS;

/** A card's look drawn per card: font, size, background, spacing between fields. */
export function drawChrome(
  random: Random,
  backgrounds: readonly string[],
): { font: string; size: number; background: string; gap: number } {
  const font = pick(random, FONTS);
  const size = 15 + Math.floor(random() * 5);
  const background = pick(random, backgrounds);
  const gap = 4 + Math.floor(random() * 8);
  return { font, size, background, gap };
}

/** The republic's header: the seal and its name in Kinyarwanda and English. */
export const REPUBLIC_HEAD = `<div class="head"><span class="seal"></span><div>
  REPUBULIKA Y'U RWANDA<br>REPUBLIC OF RWANDA</div></div>`;

/**
 * A card's page: the `.card` element Chromium photographs, bordered, with the header's and
 * title's style, around `content`. `seal` is the header seal's and name's style (the green seal
 * by default); `overflow: false` lets the card's content spill over its edge.
 */
export function cardPage(options: {
  width: number;
  background: string;
  font: string;
  size: number;
  css: string;
  content: string;
  overflow?: boolean;
  seal?: string;
}): string {
  const seal = options.seal ??
    `.seal{width:54px;height:54px;border-radius:50%;border:3px double #1b5e20;background:#cde8c8}
  .head div{font-weight:bold;line-height:1.3}`;
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  html,body{margin:0;background:#fff}
  .card{box-sizing:border-box;width:${options.width}px;padding:22px 30px;background:${options.background};
    font-family:'${options.font}';font-size:${options.size}px;color:#111;border:2px solid #444${
    options.overflow === false ? "" : ";overflow:hidden"
  }}
  .head{display:flex;align-items:center;gap:18px;border-bottom:2px solid #333;padding-bottom:8px}
  ${seal}
  .title{font-weight:bold;margin:10px 0 8px;font-size:${options.size + 3}px}
  ${options.css}
  </style></head><body><div class="card">${options.content}</div></body></html>`;
}

/** A later round's document from its rendered card and answer (the new edition, 1000 px high). */
export function roundDocument<T extends SyntheticDocument["type"]>(
  type: T,
  rendered: { html: string; width: number },
  answer: Record<string, string>,
): SyntheticDocument & { edition: "old" | "new" } {
  return {
    type,
    kind: type,
    html: rendered.html,
    viewport: { width: rendered.width, height: 1000 },
    fields: answer,
    edition: "new",
  };
}

/** A printed field of an image-side card. */
export interface StressItem {
  /** The label as printed. */
  label: string;
  /** The value as printed. */
  shown: string;
}

/**
 * An image-side round's card (`layouts_image_stress*.ts`) as drawn per card: font, size, paper,
 * spacing, columns and width, its title, and its fields printed the one way the card prints
 * them (the label above its value or before it, after a colon drawn per card); `field`'s
 * `extra` goes into each field's tag (a style).
 */
export function drawStressCard(random: Random, title: string[], items: StressItem[]): {
  font: string;
  size: number;
  paper: string;
  gap: number;
  columns: number;
  width: number;
  field: (item: StressItem, extra?: string) => string;
  head: string;
  body: string;
} {
  const font = pick(random, FONTS);
  const size = 15 + Math.floor(random() * 5);
  const paper = pick(random, ["#ffffff", "#fbf3dc", "#eef4fb", "#f3f7ee"]);
  const gap = 3 + Math.floor(random() * 7);
  const colon = pick(random, [":", "", " :"]);
  const below = random() < 0.4;
  const columns = pick(random, [1, 2, 2]);
  const width = pick(random, [950, 1100]);
  const l = (text: string) => `<span class="l">${escapeHtml(text)}</span>`;
  const v = (text: string) => `<span class="v">${escapeHtml(text)}</span>`;
  const field = (item: StressItem, extra = "") =>
    below
      ? `<div class="f"${extra}>${l(item.label)}<br>${v(item.shown)}</div>`
      : `<div class="f"${extra}>${l(item.label + colon)} ${v(item.shown)}</div>`;
  return {
    font,
    size,
    paper,
    gap,
    columns,
    width,
    field,
    head: `<div class="title">${title.map(escapeHtml).join("<br>")}</div>`,
    body: `<div class="g">${items.map((item) => field(item)).join("")}</div>`,
  };
}

/**
 * An image-side card's page: the card (`.card`, or `.doc` inside `outer`, the photo the
 * generator takes of it) with rounded corners and the republic's header, its fields in a grid
 * of `columns`. `ink` is the print's colour; `extraCss` comes right after the card's style.
 */
export function stressPage(options: {
  width: number;
  paper: string;
  font: string;
  size: number;
  columns: number;
  css: string;
  overlay: string;
  head: string;
  body: string;
  outer?: ((card: string) => string) | null;
  selector?: string;
  ink?: string;
  extraCss?: string;
  columnGap?: number;
}): string {
  const outer = options.outer ?? null;
  const inner = `<div class="${outer ? "doc" : "card"}">${options.overlay}<div class="head">
    <span class="seal"></span><div>REPUBULIKA Y'U RWANDA<br>REPUBLIC OF RWANDA</div></div>${options.head}${options.body}</div>`;
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  html,body{margin:0;background:#fff}
  ${
    options.selector ?? ".card,.doc"
  }{box-sizing:border-box;width:${options.width}px;padding:22px 30px;background:${options.paper};
    position:relative;overflow:hidden;font-family:'${options.font}';font-size:${options.size}px;color:${
    options.ink ?? "#111"
  };
    border:2px solid #444;border-radius:10px}
  ${
    options.extraCss
      ? `${options.extraCss}\n  `
      : ""
  }.head{display:flex;align-items:center;gap:18px;border-bottom:2px solid #333;padding-bottom:8px}
  .seal{width:54px;height:54px;border-radius:50%;border:3px double #1b5e20;background:#cde8c8}
  .head div{font-weight:bold;line-height:1.3}
  .title{font-weight:bold;margin:10px 0 8px;font-size:${options.size + 3}px}
  .g{display:grid;grid-template-columns:repeat(${options.columns},1fr);column-gap:${
    options.columnGap ?? 34
  }px}
  ${options.css}
  </style></head><body>${outer ? outer(inner) : inner}</body></html>`;
}

/** A calendar day drawn between two years (the ninth and later rounds). */
export interface Day {
  /** The year. */
  year: number;
  /** The month, 1–12. */
  month: number;
  /** The day, 1–28: a day every month has. */
  day: number;
}

/** A day between `fromYear` and `toYear`, drawn year, month, day. */
export function drawDay(random: Random, fromYear: number, toYear: number): Day {
  return {
    year: fromYear + Math.floor(random() * (toYear - fromYear + 1)),
    month: 1 + Math.floor(random() * 12),
    day: 1 + Math.floor(random() * 28),
  };
}

/** A day as the answer key writes it (`2024-03-12`). */
export function isoDay(value: Day): string {
  return `${value.year}-${String(value.month).padStart(2, "0")}-${
    String(value.day).padStart(2, "0")
  }`;
}

/**
 * A VIN with a valid ISO 3779 check digit whose descriptor is drawn from the
 * whole VIN alphabet (the ninth and later rounds; {@linkcode vin} keeps the
 * earlier rounds' shape).
 */
export function drawVin(random: Random, wmi: string): string {
  const body = `${wmi}${letters(random, 6, "ABCDEFGHJKLMNPRSTUVWXYZ0123456789")}${
    letters(random, 2, "ABCDEFGHJKLMNPRSTVWXY")
  }${digits(random, 6)}`;
  return body.slice(0, 8) + vinCheckDigit(body) + body.slice(9);
}

/** Half the time, leaves one optional field out: editions differ in what they print. */
export function maybeDropOneOptional<T extends { optional?: boolean }>(
  random: Random,
  fields: T[],
): T[] {
  if (random() >= 0.5) return fields;
  const optional = fields.filter((field) => field.optional);
  if (optional.length === 0) return fields;
  const gone = pick(random, optional);
  return fields.filter((field) => field !== gone);
}

/** The answer key of a card's fields: each read field's answer, or its printed value in capitals. */
export function answerOf(
  fields: readonly { key: string | null; shown: string; answer?: string }[],
): Record<string, string> {
  const answer: Record<string, string> = {};
  for (const field of fields) {
    if (field.key) answer[field.key] = field.answer ?? field.shown.toUpperCase();
  }
  return answer;
}
