/**
 * Families of the seventh round (issue 26, the field reader), written before
 * the reader was touched for them, each unlike every earlier family in a way
 * real forms, registration cards, licences and ID cards are:
 *
 * - `comb_table`: a two-column table, the label left, the value right in
 *   separate character boxes with a gap between them (plate, VIN, ID digits),
 *   groups of boxes split where the value has a space;
 * - `mirrored_table`: the value in the left column and its label in the right
 *   one, right-aligned after a rule of dots ("RAB 123 C ........ Plate");
 * - `bilingual_flank`: one language's label left of the value and the
 *   other's right of it on the same row ("Purake  RAB 123 C  Plaque");
 * - `legend_first`: a numbered legend at the top ("1. Plate  2. Make …")
 *   then the values as "1: RAB 123 C" in a grid, the labels never beside them;
 * - `mixed_separators`: a key–value list whose separators vary line by line
 *   (`:`, ` - `, `=`, `…`, `→`), two pairs on a line now and then;
 * - `unlabelled_name`: the holder's name printed large under the title with
 *   no label, the other fields small in two columns;
 * - `mrz_strip`: a landscape card, a photo box on the left, the fields in a
 *   vertical column on the right (label small over value) and a machine
 *   readable strip of `<`-filled lines along the bottom;
 * - `wrapped_labels`: long labels wrapped onto two or three lines in a narrow
 *   left column, the value on the right level with the label's last line.
 *
 * The label wordings differ from the earlier rounds' in part ("Registration
 * plate", "N° châssis", "Owner's full name", "Igihe cyatangiwe"), dates come
 * numeric or written out, and optional fields are left out now and then.
 * Split at random ({@link SEVENTH_SPLIT_SEED}, Fisher–Yates, written before the
 * split was seen) into {@link SEVENTH_DEV} (tuned on) and {@link SEVENTH_BLIND}
 * (measured before and once at the very end, its pages, words and errors never
 * opened).
 *
 * This module imports nothing from `layouts.ts` (which dispatches to it), so
 * the two stay free of an import cycle. Every value is drawn from a seeded
 * generator: no real person's data.
 *
 * @module
 */
import {
  digits,
  DISTRICTS,
  escapeHtml,
  familyGuard,
  pick,
  type Random,
  shuffle,
  splitFamilies,
  type SyntheticDocument,
} from "./synthetic.ts";
import {
  cardPage,
  drawChrome,
  drawVehicle,
  dropOptional,
  idCardValues,
  licenceValues,
  MONTHS_FR,
  MONTHS_SHORT,
  printedFields,
  registrationValues,
  REPUBLIC_HEAD,
  roundDocument,
  type RoundField as Field,
  type RoundItem as Item,
  type RoundLanguage as Language,
  type RoundWording,
  usageInAnyLanguage,
  wordedFields,
} from "./round_generator.ts";

/** The seventh round's families. */
export const SEVENTH_FAMILIES = [
  "comb_table",
  "mirrored_table",
  "bilingual_flank",
  "legend_first",
  "mixed_separators",
  "unlabelled_name",
  "mrz_strip",
  "wrapped_labels",
] as const;

/** A family of the seventh round. */
export type SeventhFamily = typeof SEVENTH_FAMILIES[number];

/** Whether `family` is one of the seventh round's. */
export const isSeventhFamily: (family: string) => family is SeventhFamily = familyGuard(
  SEVENTH_FAMILIES,
);

/** The seed that split {@link SEVENTH_FAMILIES} into dev and blind halves (chosen before the split was seen). */
export const SEVENTH_SPLIT_SEED = 2026_1127_0720;

/** The half of {@link SEVENTH_FAMILIES} the reader may be tuned on (`seventh_dev` set). */
export const SEVENTH_DEV: readonly SeventhFamily[] =
  splitFamilies(SEVENTH_FAMILIES, SEVENTH_SPLIT_SEED).dev;

/** The other half: measured before and once at the very end, never studied (`seventh_blind` set). */
export const SEVENTH_BLIND: readonly SeventhFamily[] =
  splitFamilies(SEVENTH_FAMILIES, SEVENTH_SPLIT_SEED).blind;

/** The document types a seventh-round document can be. */
export type SeventhDocumentType = "vehicle_registration" | "license" | "id_card";

const MOTOS = [
  { make: "HONDA", model: "XL125", wmi: "LAL" },
  { make: "BAJAJ", model: "BOXER", wmi: "MD2" },
  { make: "YAMAHA", model: "CRUX", wmi: "ME1" },
];
const CARS = [
  { make: "TOYOTA", model: "HILUX", wmi: "AHT" },
  { make: "TOYOTA", model: "PRADO", wmi: "JTE" },
  { make: "SUZUKI", model: "SWIFT", wmi: "JS2" },
  { make: "HYUNDAI", model: "TUCSON", wmi: "KMH" },
  { make: "MERCEDES-BENZ", model: "ACTROS", wmi: "WDB" },
  { make: "NISSAN", model: "NAVARA", wmi: "JN1" },
];

/** The registration's labels, by field. */
const REGISTRATION_WORDING: RoundWording = {
  plate: { rw: "Purake", fr: "Plaque", en: "Registration plate" },
  vin: { rw: "Nomero ya shasi", fr: "N° châssis", en: "VIN" },
  make: { rw: "Ikirango", fr: "Marque", en: "Brand" },
  model: { rw: "Ubwoko", fr: "Modèle", en: "Model" },
  year: { rw: "Umwaka wakozwemo", fr: "Année", en: "Year built" },
  owner_name: { rw: "Nyirayo", fr: "Nom du titulaire", en: "Owner's full name" },
  owner_national_id: { rw: "Indangamuntu", fr: "N° carte d'identité", en: "Owner ID No." },
  usage: { rw: "Imikoreshereze", fr: "Genre d'usage", en: "Purpose" },
  issue_date: { rw: "Igihe cyatangiwe", fr: "Délivré le", en: "Issued on" },
  expiry_date: { rw: "Kizarangira", fr: "Expire le", en: "Expires" },
};

/** The licence's labels, by field. */
const LICENCE_WORDING: RoundWording = {
  full_name: { rw: "Amazina yose", fr: "Nom complet", en: "Full name" },
  date_of_birth: { rw: "Itariki y'amavuko", fr: "Date de naissance", en: "Born" },
  national_id: { rw: "Nomero y'indangamuntu", fr: "N° national", en: "ID number" },
  licence_number: { rw: "Nomero y'uruhushya", fr: "N° du permis", en: "Permit No." },
  categories: { rw: "Ibyiciro", fr: "Catégories", en: "Classes" },
  issue_date: { rw: "Rwatanzwe", fr: "Date de délivrance", en: "Issued" },
  expiry_date: { rw: "Ruzarangira", fr: "Date d'expiration", en: "Expiry" },
};

/** The ID card's labels, by field. */
const ID_CARD_WORDING: RoundWording = {
  full_name: { rw: "Amazina", fr: "Nom et prénom", en: "Surname and given names" },
  date_of_birth: { rw: "Yavutse", fr: "Né le", en: "Birth date" },
  sex: { rw: "Igitsina", fr: "Sexe", en: "Sex" },
  place_of_issue: { rw: "Aho yatangiwe", fr: "Lieu d'émission", en: "Issuing office" },
  issue_date: { rw: "Igihe yatangiwe", fr: "Date d'émission", en: "Issue date" },
  national_id: { rw: "Nomero y'indangamuntu", fr: "N° d'identification", en: "Personal ID No." },
};

function registration(random: Random): { title: [string, string]; fields: Field[] } {
  const values = registrationValues(random, drawVehicle(random, { motos: MOTOS, cars: CARS }), {
    made: [2005, 20],
    holderBorn: [1960, 40],
    issued: [2012, 2025],
    expires: [2028, 2033],
  }, usageInAnyLanguage(random));
  return {
    title: ["ICYEMEZO CY'IYANDIKISHA RY'IKINYABIZIGA", "VEHICLE REGISTRATION CERTIFICATE"],
    fields: [
      ...wordedFields("vehicle_registration", values, REGISTRATION_WORDING),
      {
        key: null,
        labels: { rw: "Umubare w'intebe", fr: "Places assises", en: "Seats" },
        shown: String(pick(random, [2, 4, 5, 7, 14])),
      },
    ],
  };
}

function licence(random: Random): { title: [string, string]; fields: Field[] } {
  const values = licenceValues(random);
  return {
    title: ["URUHUSHYA RWO GUTWARA", "DRIVING PERMIT"],
    fields: [
      ...wordedFields("license", values, LICENCE_WORDING),
      {
        key: null,
        labels: { rw: "Aho atuye", fr: "Adresse", en: "Address" },
        shown: `${pick(random, DISTRICTS).toUpperCase()} ${pick(random, ["KG", "KN", "KK"])} ${
          digits(random, 3)
        } ST`,
      },
    ],
  };
}

function idCard(random: Random): { title: [string, string]; fields: Field[] } {
  const values = idCardValues(random);
  return {
    title: ["INDANGAMUNTU", "CARTE D'IDENTITÉ NATIONALE"],
    fields: [
      ...wordedFields("id_card", values, ID_CARD_WORDING),
      {
        key: null,
        labels: { rw: "Umukono", fr: "Signature", en: "Signature" },
        shown: "",
      },
    ],
  };
}

/** A card's dates, in one format a card keeps for all of them. */
type DateStyle = "slash" | "dash" | "iso" | "short_en" | "fr_long";

function dateAs(style: DateStyle, shown: string): string {
  const [dd, mm, yyyy] = shown.split("/");
  const month = Number(mm) - 1;
  switch (style) {
    case "slash":
      return shown;
    case "dash":
      return `${dd}-${mm}-${yyyy}`;
    case "iso":
      return `${yyyy}-${mm}-${dd}`;
    case "short_en":
      return `${dd} ${MONTHS_SHORT[month]} ${yyyy}`;
    case "fr_long":
      return `${Number(dd)} ${MONTHS_FR[month]} ${yyyy}`;
  }
}

/** A machine-readable strip's line: `text` upper-cased, spaces as `<`, filled with `<`. */
function mrzLine(text: string, length: number): string {
  return text.toUpperCase().replace(/[^A-Z0-9]+/g, "<").padEnd(length, "<").slice(0, length);
}

/** One document of a type in a seventh-round family: what to render and what must be read from it. */
export function seventhDocument(
  type: SeventhDocumentType,
  family: SeventhFamily,
  random: Random,
): SyntheticDocument & { edition: "old" | "new" } {
  const made = type === "vehicle_registration"
    ? registration(random)
    : type === "license"
    ? licence(random)
    : idCard(random);
  const fields = dropOptional(random, made.fields);
  const languages = family === "bilingual_flank"
    ? pick(random, [["rw", "fr"], ["rw", "en"], ["fr", "en"]] as Language[][])
    : pick(
      random,
      [["rw", "en"], ["fr"], ["en"], ["rw", "fr"], ["rw", "fr", "en"]] as Language[][],
    );
  const style = pick(random, ["slash", "dash", "iso", "short_en", "fr_long"] as DateStyle[]);
  const { answer, items } = printedFields(fields, languages, (shown) => dateAs(style, shown));
  return roundDocument(type, renderSeventh(family, random, made.title, items, languages), answer);
}

function renderSeventh(
  family: SeventhFamily,
  random: Random,
  title: [string, string],
  items: Item[],
  languages: Language[],
): { html: string; width: number } {
  const { font, size, background, gap } = drawChrome(
    random,
    ["#ffffff", "#fbf3dc", "#e8f0fa", "#eef6ea", "#f6e8ee"],
  );
  const titleLines = random() < 0.5 ? title : [pick(random, title)];
  let width = pick(random, [950, 1100]);
  const head = `${REPUBLIC_HEAD}<div class="title">${
    titleLines.map(escapeHtml).join("<br>")
  }</div>`;
  let body = "";
  let css = "";
  const e = escapeHtml;
  const named = items.filter((item) => item.shown !== "");
  switch (family) {
    case "comb_table": {
      // Separate boxes with a gap between them; a space in the value starts a new group.
      const comb = (text: string) =>
        `<span class="comb">${
          text.split(" ").map((group) =>
            `<span class="grp">${
              [...group].map((char) => `<span class="b">${e(char)}</span>`).join("")
            }</span>`
          ).join("")
        }</span>`;
      const combed = (item: Item) =>
        item.key !== null && !/date|birth/.test(item.key) && item.shown.length <= 24 &&
        /\d/.test(item.shown);
      body = `<table class="t">${
        named.map((item) =>
          `<tr><td class="l">${e(item.label)}</td><td>${
            combed(item) ? comb(item.shown) : `<span class="v">${e(item.shown)}</span>`
          }</td></tr>`
        ).join("")
      }</table>`;
      css = `.t{border-collapse:collapse;margin-top:6px}.t td{padding:${gap}px 10px ${gap}px 0}
        .l{font-size:0.85em;color:#333;width:34%}.v{font-weight:bold}
        .comb{display:inline-flex;gap:10px}.grp{display:inline-flex;gap:3px}
        .b{display:inline-block;width:1.1em;height:1.4em;text-align:center;border:1px solid #555;
        font-weight:bold;line-height:1.4em}`;
      break;
    }
    case "mirrored_table": {
      body = `<table class="t">${
        named.map((item) =>
          `<tr><td class="v">${e(item.shown)}</td><td class="d"></td><td class="l">${
            e(item.label)
          }</td></tr>`
        ).join("")
      }</table>`;
      css = `.t{width:100%;border-collapse:collapse;margin-top:6px}.t td{padding:${gap}px 0}
        .v{font-weight:bold;white-space:nowrap;padding-right:8px !important;width:40%}
        .d{border-bottom:2px dotted #888;width:25%}
        .l{text-align:right;font-size:0.85em;color:#444;padding-left:8px !important}`;
      break;
    }
    case "bilingual_flank": {
      const [left, right] = languages;
      body = `<table class="t">${
        named.map((item) =>
          `<tr><td class="l">${e(item.labels[left])}</td><td class="v">${
            e(item.shown)
          }</td><td class="r">${e(item.labels[right])}</td></tr>`
        ).join("")
      }</table>`;
      css = `.t{width:100%;border-collapse:collapse;margin-top:6px}.t td{padding:${gap}px 6px}
        .l{font-size:0.85em;color:#333;width:30%}.v{font-weight:bold;white-space:nowrap}
        .r{font-size:0.85em;color:#333;font-style:italic;text-align:right;width:26%}`;
      break;
    }
    case "legend_first": {
      const numbered = shuffle(random, named).map((item, index) => ({ ...item, code: index + 1 }));
      const legend = [...numbered].sort((a, b) => a.code - b.code);
      body = `<div class="legend">${
        legend.map((item) => `<span>${item.code}. ${e(item.label)}</span>`).join("&nbsp;&nbsp; ")
      }</div><div class="g">${
        shuffle(random, numbered).map((item) =>
          `<div class="f"><span class="c">${item.code}:</span> <span class="v">${
            e(item.shown)
          }</span></div>`
        ).join("")
      }</div>`;
      css =
        `.legend{font-size:0.72em;color:#333;border:1px solid #888;padding:6px;margin:6px 0 12px;
        line-height:1.6}.g{display:grid;grid-template-columns:1fr 1fr;column-gap:40px}
        .f{margin:${gap}px 0}.c{color:#444}.v{font-weight:bold;white-space:nowrap}`;
      break;
    }
    case "mixed_separators": {
      const separators = [":", " -", " =", " …", " →", " ::"];
      const lines: string[] = [];
      const list = [...named];
      while (list.length) {
        const take = list.length > 1 && random() < 0.3 ? 2 : 1;
        const pairs = list.splice(0, take).map((item) =>
          `<span class="l">${e(item.label)}${e(pick(random, separators))}</span> <span class="v">${
            e(item.shown)
          }</span>`
        );
        lines.push(`<div class="f">${pairs.join('<span class="sp"></span>')}</div>`);
      }
      body = `<div class="list">${lines.join("")}</div>`;
      css = `.f{margin:${gap}px 0}.l{color:#333}.v{font-weight:${pick(random, ["bold", "normal"])}}
        .sp{display:inline-block;width:60px}`;
      break;
    }
    case "unlabelled_name": {
      const isName = (item: Item) => item.key === "owner_name" || item.key === "full_name";
      const name = named.find(isName);
      const rest = named.filter((item) => !isName(item));
      body = `<div class="name">${e(name?.shown ?? "")}</div><div class="g">${
        rest.map((item) =>
          `<div class="f"><span class="l">${e(item.label)}</span> <span class="v">${
            e(item.shown)
          }</span></div>`
        ).join("")
      }</div>`;
      css = `.name{font-size:1.9em;font-weight:bold;margin:10px 0 14px;letter-spacing:0.02em}
        .g{display:grid;grid-template-columns:1fr 1fr;column-gap:34px}
        .f{margin:${gap}px 0;font-size:0.9em}.l{color:#555}.v{font-weight:bold}`;
      break;
    }
    case "mrz_strip": {
      width = 1150;
      const of = (pattern: RegExp) => named.find((item) => item.key && pattern.test(item.key));
      const name = of(/name/)?.shown ?? "";
      const number = of(/plate|licence_number|^national_id/)?.shown ?? "";
      const [surname, ...given] = name.split(" ");
      const mrz = [
        mrzLine(`ID RWA ${number.replace(/\s/g, "")}`, 36),
        mrzLine(`${digits(random, 6)}${random() < 0.5 ? "M" : "F"}${digits(random, 7)}RWA`, 36),
        mrzLine(`${surname}  ${given.join(" ")}`, 36),
      ];
      body = `<div class="row"><div class="photo"></div><div class="col">${
        named.map((item) =>
          `<div class="f"><div class="l">${e(item.label)}</div><div class="v">${
            e(item.shown)
          }</div></div>`
        ).join("")
      }</div></div><div class="mrz">${mrz.map(e).join("<br>")}</div>`;
      css = `.row{display:flex;gap:40px;margin-top:8px}
        .photo{width:230px;height:290px;background:#c9c9c9;border:1px solid #777;flex:none}
        .col{margin-left:auto;width:52%}.f{margin:${Math.max(2, gap - 3)}px 0}
        .l{font-size:0.7em;color:#444}.v{font-weight:bold;white-space:nowrap}
        .mrz{font-family:'DejaVu Sans Mono';font-size:1.05em;letter-spacing:0.12em;margin-top:14px;
        border-top:1px solid #999;padding-top:8px}`;
      break;
    }
    case "wrapped_labels": {
      body = `<table class="t">${
        named.map((item) =>
          `<tr><td class="l">${e(item.label)}</td><td class="v">${e(item.shown)}</td></tr>`
        ).join("")
      }</table>`;
      css = `.t{border-collapse:collapse;margin-top:6px}.t td{padding:${gap}px 14px ${gap}px 0;
        vertical-align:bottom}.l{width:${pick(random, [110, 130, 150])}px;font-size:0.85em;
        color:#333;line-height:1.15}.v{font-weight:bold;white-space:nowrap}`;
      break;
    }
  }
  const html = cardPage({ width, background, font, size, css, content: `${head}${body}` });
  return { html, width };
}
