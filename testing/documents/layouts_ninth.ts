/**
 * Families of the ninth round (issue 26, the field reader), written before the
 * reader was touched for them and without reading earlier rounds' generators
 * (only their list of families and one module's API). Each family copies a
 * kind of real card or form the earlier rounds did not, and the values come
 * from a generator of this module's own: its own names, places and vehicles,
 * names printed `SURNAME, Given` or `Given SURNAME`, dates with Roman-numeral
 * months (`12.IV.2019`), French abbreviated months (`12 avr. 2019`),
 * Kinyarwanda months (`12 Mata 2019`), `2019/04/12` or `12 April 2019`.
 *
 * - `coded_booklet`: an old paper "carte grise"-style booklet page whose
 *   fields carry codes (`A`, `C.1`, `D.3`, or `1.`, `4a.` on a licence), with
 *   the key that names each code printed elsewhere on the page;
 * - `far_right_labels`: each value at the left of its row and its label
 *   right-aligned at the far right of the card;
 * - `abbrev_grid`: values in a grid of cells, each under a two- or
 *   three-letter caption (`PL`, `VIN`, `MK`, `DOB`, `SX`);
 * - `category_table`: the card's values in label/value rows, then a table of
 *   per-row categories with their own dates (licence categories, inspections,
 *   card renewals) whose dates are not the card's;
 * - `customs_boxes`: a declaration-like form of numbered boxes, a small
 *   label in each box's corner, among boxes of numbers that are no field
 *   (weights, amounts, tariff codes, office codes);
 * - `logbook_hand`: a logbook page, labels small in a left margin and values
 *   written in a slanted, blue, uneven "hand" above ruled lines.
 *
 * Split at random ({@link NINTH_SPLIT_SEED}, Fisher–Yates in `splitFamilies`,
 * written before the split was seen) into {@link NINTH_DEV} (tuned on) and
 * {@link NINTH_BLIND} (measured before and once at the very end, its pages,
 * words and errors never opened).
 *
 * Imports nothing from `layouts.ts` (which dispatches to it). Every value is
 * drawn from a seeded generator: no real person's data.
 *
 * @module
 */
import { FRENCH_SHORT_MONTHS, KINYARWANDA_MONTHS } from "@shared/capabilities/format/format.ts";
import {
  answerOf,
  type Day,
  drawDay,
  drawVin,
  isoDay,
  maybeDropOneOptional,
  MONTHS_EN,
} from "./round_generator.ts";
import {
  digits,
  escapeHtml,
  familyGuard,
  letters,
  nationalId,
  pick,
  type Random,
  splitFamilies,
  type SyntheticDocument,
} from "./synthetic.ts";

/** The ninth round's families. */
export const NINTH_FAMILIES = [
  "coded_booklet",
  "far_right_labels",
  "abbrev_grid",
  "category_table",
  "customs_boxes",
  "logbook_hand",
] as const;

/** A family of the ninth round. */
export type NinthFamily = typeof NINTH_FAMILIES[number];

/** Whether `family` is one of the ninth round's. */
export const isNinthFamily: (family: string) => family is NinthFamily = familyGuard(
  NINTH_FAMILIES,
);

/** The seed that split {@link NINTH_FAMILIES} into dev and blind halves (chosen before the split was seen). */
export const NINTH_SPLIT_SEED = 2026_1127_1312;

/** The half of {@link NINTH_FAMILIES} the reader may be tuned on (`ninth_dev` set). */
export const NINTH_DEV: readonly NinthFamily[] =
  splitFamilies(NINTH_FAMILIES, NINTH_SPLIT_SEED).dev;

/** The other half: measured before and once at the very end, never studied (`ninth_blind` set). */
export const NINTH_BLIND: readonly NinthFamily[] =
  splitFamilies(NINTH_FAMILIES, NINTH_SPLIT_SEED).blind;

/** The document types a ninth-round document can be. */
export type NinthDocumentType = "vehicle_registration" | "license" | "id_card";

type Language = "rw" | "fr" | "en";

// This round's own people, places and vehicles (not the shared lists).
const FAMILY_NAMES = [
  "HABIYAREMYE",
  "NSENGIMANA",
  "UWIMANA",
  "MUKESHIMANA",
  "TUYISENGE",
  "NIYONSENGA",
  "HAKIZIMANA",
  "UMUHOZA",
  "BIZIMUNGU",
  "NDAHIRO",
  "MUREKATETE",
  "GASANA",
  "IRADUKUNDA",
  "KAMANZI",
  "RWIGEMA",
];
const GIVEN_NAMES = [
  "Olivier",
  "Solange",
  "Emmanuel",
  "Béatrice",
  "Théogène",
  "Josiane",
  "Fabrice",
  "Vestine",
  "Aimable",
  "Clarisse",
  "Gilbert",
  "Yvonne",
  "Eric",
  "Diane",
];
const PLACES = ["NYARUGENGE", "KICUKIRO", "GASABO", "RUSIZI", "NYAMASHEKE", "KARONGI", "GICUMBI"];
const VEHICLES = [
  { make: "NISSAN", model: "XTRAIL", wmi: "JN1", moto: false },
  { make: "HYUNDAI", model: "TUCSON", wmi: "KMH", moto: false },
  { make: "SUZUKI", model: "SWIFT", wmi: "JS2", moto: false },
  { make: "MERCEDES", model: "SPRINTER", wmi: "WDB", moto: false },
  { make: "FORD", model: "RANGER", wmi: "MNA", moto: false },
  { make: "YAMAHA", model: "CRUX", wmi: "ME1", moto: true },
  { make: "HERO", model: "HUNK", wmi: "MBL", moto: true },
];

const ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"];
/** How a card prints its dates; one style a card. */
type DateStyle = "roman" | "fr_month" | "rw_month" | "ymd_slash" | "en_month";

function printed(value: Day, style: DateStyle): string {
  const dd = String(value.day).padStart(2, "0");
  switch (style) {
    case "roman":
      return `${dd}.${ROMAN[value.month - 1]}.${value.year}`;
    case "fr_month":
      return `${value.day} ${FRENCH_SHORT_MONTHS[value.month - 1]} ${value.year}`;
    case "rw_month":
      return `${dd} ${KINYARWANDA_MONTHS[value.month - 1]} ${value.year}`;
    case "ymd_slash":
      return `${value.year}/${String(value.month).padStart(2, "0")}/${dd}`;
    case "en_month":
      return `${value.day} ${MONTHS_EN[value.month - 1]} ${value.year}`;
  }
}

/** A person: the name as printed and as it must be read, and a matching national ID. */
function person(random: Random, bornFrom: number, bornTo: number) {
  const surname = pick(random, FAMILY_NAMES);
  const given = pick(random, GIVEN_NAMES);
  const comma = random() < 0.5;
  const shown = comma ? `${surname}, ${given}` : `${given} ${surname}`;
  const answer = (comma ? `${surname} ${given}` : `${given} ${surname}`).toUpperCase();
  const sex: "M" | "F" = random() < 0.5 ? "F" : "M";
  const born = drawDay(random, bornFrom, bornTo);
  const id = nationalId(random, born.year, sex);
  return { shown, answer, surname, given, sex, born, id };
}

/** One printed field: answer key (null: printed, never read), code, labels, value. */
interface Field {
  key: string | null;
  /** The code a booklet or licence prints for it (`A`, `D.1`, `4a.`). */
  code: string;
  /** Two or three capitals a grid prints for it. */
  abbrev: string;
  /** Per language, one or more wordings. */
  labels: Record<Language, string[]>;
  shown: string;
  answer?: string;
  optional?: boolean;
}

const USE: Record<string, Record<Language, string>> = {
  private: { rw: "BWITE", fr: "PERSONNEL", en: "PRIVATE USE" },
  commercial: { rw: "UBUCURUZI", fr: "COMMERCIAL", en: "GOODS CARRIAGE" },
  taxi: { rw: "TAGISI", fr: "TAXI", en: "HIRE TAXI" },
  "taxi-moto": { rw: "MOTO Y'ABAGENZI", fr: "TAXI-MOTO", en: "MOTO TAXI" },
};

function registration(random: Random, language: Language, style: DateStyle): Field[] {
  const vehicle = pick(random, VEHICLES);
  const use = vehicle.moto
    ? pick(random, ["taxi-moto", "private"])
    : pick(random, ["private", "commercial", "taxi"]);
  const plate = vehicle.moto
    ? `R${letters(random, 1, "ABCDEFGHJK")} ${digits(random, 3)} ${letters(random, 1)}`
    : `R${letters(random, 2, "ABCDEFGHJK")} ${digits(random, 3)} ${letters(random, 1)}`;
  const owner = person(random, 1955, 2003);
  const issued = drawDay(random, 2012, 2025);
  const expires = drawDay(random, 2027, 2035);
  return [
    {
      key: "plate",
      code: "A",
      abbrev: "PL",
      labels: {
        rw: ["Icyapa", "Nomero y'icyapa"],
        fr: ["Numéro d'immatriculation", "N° plaque"],
        en: ["Registration mark", "Plate"],
      },
      shown: plate,
    },
    {
      key: "issue_date",
      code: "B",
      abbrev: "DRG",
      labels: {
        rw: ["Yanditswe bwa mbere", "Itariki yanditsweho"],
        fr: ["Date de 1re immatriculation", "Immatriculé le"],
        en: ["First registration", "Date registered"],
      },
      shown: printed(issued, style),
      answer: isoDay(issued),
    },
    {
      key: "owner_name",
      code: "C.1",
      abbrev: "OWN",
      labels: {
        rw: ["Nyirayo", "Umwirondoro wa nyirayo"],
        fr: ["Titulaire du certificat", "Nom du titulaire"],
        en: ["Keeper", "Name of owner"],
      },
      shown: owner.shown,
      answer: owner.answer,
    },
    {
      key: "owner_national_id",
      code: "C.4",
      abbrev: "NID",
      labels: {
        rw: ["Indangamuntu ya nyirayo"],
        fr: ["Pièce d'identité du titulaire"],
        en: ["Keeper's ID"],
      },
      shown: owner.id,
      answer: owner.id,
      optional: true,
    },
    {
      key: "make",
      code: "D.1",
      abbrev: "MK",
      labels: { rw: ["Ikirango cy'uruganda"], fr: ["Marque"], en: ["Make"] },
      shown: vehicle.make,
    },
    {
      key: "model",
      code: "D.3",
      abbrev: "MDL",
      labels: {
        rw: ["Izina ry'ubwoko"],
        fr: ["Dénomination commerciale"],
        en: ["Commercial name"],
      },
      shown: vehicle.model,
    },
    {
      key: "vin",
      code: "E",
      abbrev: "VIN",
      labels: {
        rw: ["Nimero iranga ikinyabiziga"],
        fr: ["N° d'identification du véhicule"],
        en: ["Vehicle identification number"],
      },
      shown: drawVin(random, vehicle.wmi),
    },
    {
      key: "year",
      code: "D.5",
      abbrev: "YR",
      labels: { rw: ["Umwaka w'ikorwa"], fr: ["Année modèle"], en: ["Model year"] },
      shown: String(2005 + Math.floor(random() * 20)),
      optional: true,
    },
    {
      key: "usage",
      code: "J.3",
      abbrev: "USE",
      labels: { rw: ["Ikoreshwa"], fr: ["Genre d'utilisation"], en: ["Purpose"] },
      shown: USE[use][language],
      answer: use,
    },
    {
      key: "expiry_date",
      code: "I",
      abbrev: "EXP",
      labels: { rw: ["Igihe kirangirira"], fr: ["Date d'échéance"], en: ["Expiry"] },
      shown: printed(expires, style),
      answer: isoDay(expires),
      optional: true,
    },
    {
      key: null,
      code: "F.1",
      abbrev: "KG",
      labels: { rw: ["Uburemere ntarengwa"], fr: ["Masse en charge"], en: ["Max. mass"] },
      shown: `${1000 + Math.floor(random() * 3000)} kg`,
    },
    {
      key: null,
      code: "S.1",
      abbrev: "ST",
      labels: { rw: ["Imyanya"], fr: ["Places assises"], en: ["Seats"] },
      shown: String(2 + Math.floor(random() * 6)),
    },
  ];
}

function licence(random: Random, _language: Language, style: DateStyle): Field[] {
  const holder = person(random, 1962, 2004);
  const issued = drawDay(random, 2013, 2025);
  const expires = drawDay(random, 2027, 2036);
  const classes = pick(random, [["B"], ["A", "B"], ["B", "C"], ["B", "C", "D"], ["A"], ["C", "D"]]);
  const number = random() < 0.5
    ? `${digits(random, 2)}${letters(random, 1, "ABCDEFGHJK")}${digits(random, 6)}`
    : `1${holder.born.year}${holder.sex === "F" ? "7" : "8"}${digits(random, 7)}0${
      digits(random, 2)
    }`;
  return [
    {
      key: "full_name",
      code: "1.",
      abbrev: "NM",
      labels: {
        rw: ["Amazina y'umushoferi"],
        fr: ["Nom et prénom"],
        en: ["Licence holder"],
      },
      shown: holder.shown,
      answer: holder.answer,
    },
    {
      key: "date_of_birth",
      code: "3.",
      abbrev: "DOB",
      labels: { rw: ["Italiki y'amavuko"], fr: ["Date de naissance"], en: ["Born"] },
      shown: printed(holder.born, style),
      answer: isoDay(holder.born),
    },
    {
      key: "issue_date",
      code: "4a.",
      abbrev: "ISS",
      labels: { rw: ["Rwatanzwe"], fr: ["Date de délivrance"], en: ["Issue date"] },
      shown: printed(issued, style),
      answer: isoDay(issued),
    },
    {
      key: "expiry_date",
      code: "4b.",
      abbrev: "EXP",
      labels: { rw: ["Ruzarangira"], fr: ["Date d'expiration"], en: ["Expiry date"] },
      shown: printed(expires, style),
      answer: isoDay(expires),
      optional: true,
    },
    {
      key: "national_id",
      code: "4d.",
      abbrev: "NID",
      labels: {
        rw: ["Nimero y'indangamuntu"],
        fr: ["Numéro national"],
        en: ["National ID number"],
      },
      shown: holder.id,
      answer: holder.id,
      optional: true,
    },
    {
      key: "licence_number",
      code: "5.",
      abbrev: "LIC",
      labels: { rw: ["Nimero y'uruhushya"], fr: ["Numéro du permis"], en: ["Licence number"] },
      shown: number,
    },
    {
      key: "categories",
      code: "9.",
      abbrev: "CAT",
      labels: {
        rw: ["Ibyiciro by'ibinyabiziga"],
        fr: ["Catégories de véhicules"],
        en: ["Categories"],
      },
      shown: classes.join(" "),
      answer: classes.join(", "),
    },
    {
      key: null,
      code: "8.",
      abbrev: "ADR",
      labels: { rw: ["Aho atuye"], fr: ["Adresse"], en: ["Address"] },
      shown: `${pick(random, PLACES)} / KG ${digits(random, 3)} ST`,
    },
  ];
}

function idCard(random: Random, language: Language, style: DateStyle): Field[] {
  const holder = person(random, 1956, 2006);
  const issued = drawDay(random, 2009, 2025);
  const sexWord = {
    rw: { M: "Gabo", F: "Gore" },
    fr: { M: "M", F: "F" },
    en: { M: "Male", F: "Female" },
  }[language][holder.sex];
  return [
    {
      key: "full_name",
      code: "1",
      abbrev: "NM",
      labels: { rw: ["Izina n'irindi"], fr: ["Nom, prénom"], en: ["Surname, given name"] },
      shown: holder.shown,
      answer: holder.answer,
    },
    {
      key: "national_id",
      code: "2",
      abbrev: "NID",
      labels: { rw: ["Inomero"], fr: ["N° national"], en: ["Personal number"] },
      shown: holder.id.replace(/^(\d)(\d{4})(\d)(\d{7})(\d)(\d{2})$/, "$1-$2-$3-$4-$5-$6"),
      answer: holder.id,
    },
    {
      key: "date_of_birth",
      code: "3",
      abbrev: "DOB",
      labels: { rw: ["Yavukiye ku wa"], fr: ["Naissance"], en: ["Date of birth"] },
      shown: printed(holder.born, style),
      answer: isoDay(holder.born),
    },
    {
      key: "sex",
      code: "4",
      abbrev: "SX",
      labels: { rw: ["Igitsina"], fr: ["Sexe"], en: ["Sex"] },
      shown: sexWord,
      answer: holder.sex,
    },
    {
      key: "place_of_issue",
      code: "5",
      abbrev: "POI",
      labels: { rw: ["Cyatangiwe i"], fr: ["Délivrée à"], en: ["Issuing office"] },
      shown: pick(random, PLACES),
      optional: true,
    },
    {
      key: "issue_date",
      code: "6",
      abbrev: "DOI",
      labels: { rw: ["Cyatanzwe ku wa"], fr: ["Délivrée le"], en: ["Date of issue"] },
      shown: printed(issued, style),
      answer: isoDay(issued),
    },
    {
      key: null,
      code: "7",
      abbrev: "HT",
      labels: { rw: ["Uburebure"], fr: ["Taille"], en: ["Height"] },
      shown: `1.${50 + Math.floor(random() * 45)} m`,
    },
  ];
}

const TITLES: Record<NinthDocumentType, string[][]> = {
  vehicle_registration: [
    ["CERTIFICAT D'IMMATRICULATION"],
    ["ICYEMEZO CY'IYANDIKISHA RY'IKINYABIZIGA", "REGISTRATION CERTIFICATE"],
    ["VEHICLE REGISTRATION BOOK"],
  ],
  license: [
    ["PERMIS DE CONDUIRE"],
    ["URUHUSHYA RWO GUTWARA", "DRIVING LICENCE"],
    ["DRIVING LICENCE"],
  ],
  id_card: [
    ["INDANGAMUNTU", "CARTE D'IDENTITÉ"],
    ["NATIONAL IDENTITY CARD"],
    ["CARTE NATIONALE D'IDENTITÉ"],
  ],
};

/** One document of a type in a ninth-round family: what to render and what must be read from it. */
export function ninthDocument(
  type: NinthDocumentType,
  family: NinthFamily,
  random: Random,
): SyntheticDocument & { edition: "old" | "new" } {
  const language = pick(random, ["rw", "fr", "en"] as Language[]);
  const style = pick(
    random,
    ["roman", "fr_month", "rw_month", "ymd_slash", "en_month"] as DateStyle[],
  );
  const made = type === "vehicle_registration"
    ? registration(random, language, style)
    : type === "license"
    ? licence(random, language, style)
    : idCard(random, language, style);
  const fields = maybeDropOneOptional(random, made);
  const answer = answerOf(fields);
  // A second language for the label about half the time ("Marque / Make").
  const second = random() < 0.5 ? pick(random, ["rw", "fr", "en"] as Language[]) : null;
  const label = (field: Field) => {
    const first = pick(random, field.labels[language]);
    return second && second !== language ? `${first} / ${field.labels[second][0]}` : first;
  };
  const title = pick(random, TITLES[type]);
  const html = render(family, random, { type, title, fields, label, style });
  return {
    type,
    kind: type,
    html,
    viewport: { width: 980, height: 1000 },
    fields: answer,
    edition: family === "coded_booklet" || family === "logbook_hand" ? "old" : "new",
  };
}

interface Card {
  type: NinthDocumentType;
  title: string[];
  fields: Field[];
  label: (field: Field) => string;
  style: DateStyle;
}

function render(family: NinthFamily, random: Random, card: Card): string {
  const e = escapeHtml;
  const font = pick(random, ["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Condensed"]);
  const size = 17 + Math.floor(random() * 4);
  const fields = [...card.fields];
  // Real cards keep their order; a few editions move one field.
  if (random() < 0.4) {
    const from = Math.floor(random() * fields.length);
    const [moved] = fields.splice(from, 1);
    fields.splice(Math.floor(random() * fields.length), 0, moved);
  }
  let body: string;
  if (family === "coded_booklet") {
    // Codes beside values; the key naming each code printed below, in two columns.
    const rows = fields.map((field) =>
      `<div class="cr"><span class="code">${e(field.code)}</span><span class="v">${
        e(field.shown)
      }</span></div>`
    ).join("");
    const key = [...fields].sort(() => random() - 0.5).map((field) =>
      `<div class="k"><b>${e(field.code)}</b> ${e(card.label(field))}</div>`
    ).join("");
    const legend = card.type === "license"
      ? "Key to the numbered fields / Légende"
      : "Explanation of codes / Signification des codes";
    body = `<div class="codes">${rows}</div><div class="legend"><div class="lt">${
      e(legend)
    }</div><div class="keys">${key}</div></div>`;
  } else if (family === "far_right_labels") {
    body = `<table class="fr">${
      fields.map((field) =>
        `<tr><td class="v">${e(field.shown)}</td><td class="rl">${e(card.label(field))}</td></tr>`
      ).join("")
    }</table>`;
  } else if (family === "abbrev_grid") {
    body = `<div class="ag">${
      fields.map((field) =>
        `<div class="cell"><div class="ab">${e(field.abbrev)}</div><div class="v">${
          e(field.shown)
        }</div></div>`
      ).join("")
    }</div>`;
  } else if (family === "category_table") {
    const main = fields.filter((field) => field.key !== "categories");
    const rows = main.map((field) =>
      `<tr><td class="l">${e(card.label(field))}:</td><td class="v">${e(field.shown)}</td></tr>`
    ).join("");
    body = `<table class="kv">${rows}</table>${side(card, random)}`;
  } else if (family === "customs_boxes") {
    const noise = [
      ["7", "Reference", `${digits(random, 4)}/${letters(random, 3)}/${digits(random, 5)}`],
      ["29", "Office / Bureau", `RW${letters(random, 3)}${digits(random, 2)}`],
      ["33", "Commodity code", `${digits(random, 4)}.${digits(random, 2)}.${digits(random, 2)}`],
      ["35", "Gross mass (kg)", `${digits(random, 4)}`],
      ["46", "Statistical value", `${digits(random, 2)} ${digits(random, 3)} ${digits(random, 3)}`],
    ];
    const boxes = [
      ...fields.map((field, index) => ({
        number: String(index + 10),
        label: card.label(field),
        value: field.shown,
      })),
      ...noise.map(([number, label, value]) => ({ number, label, value })),
    ].sort(() => random() - 0.5);
    body = `<div class="cb">${
      boxes.map((box) =>
        `<div class="box"><div class="bl">${e(box.number)} ${e(box.label)}</div><div class="v">${
          e(box.value)
        }</div></div>`
      ).join("")
    }</div>`;
  } else {
    body = `<div class="lb">${
      fields.map((field) => {
        const tilt = (random() * 3 - 1.5).toFixed(1);
        const shift = Math.floor(random() * 30);
        return `<div class="line"><span class="ml">${
          e(card.label(field))
        }</span><span class="hand" style="transform:rotate(${tilt}deg);margin-left:${shift}px">${
          e(field.shown)
        }</span></div>`;
      }).join("")
    }</div>`;
  }
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  html,body{margin:0;background:#fff}
  .card{box-sizing:border-box;width:960px;padding:22px 30px;background:${
    pick(random, ["#fdfbf3", "#f4f1e6", "#eef3f8", "#ffffff"])
  };font-family:'${font}';font-size:${size}px;color:#151515;border:2px solid #444}
  .top{display:flex;justify-content:space-between;align-items:flex-start;font-size:0.8em}
  .title{font-weight:bold;font-size:1.15em;margin:10px 0 14px;text-align:center}
  .v{font-weight:bold;white-space:nowrap}
  .codes{display:grid;grid-template-columns:1fr 1fr;column-gap:40px;row-gap:8px}
  .cr{display:flex;gap:14px;align-items:baseline}
  .code{display:inline-block;min-width:44px;font-size:0.85em;color:#333;border:1px solid #777;
    padding:1px 4px;text-align:center}
  .legend{margin-top:26px;border-top:1px solid #777;padding-top:8px;font-size:0.72em;color:#333}
  .lt{font-style:italic;margin-bottom:4px}
  .keys{display:grid;grid-template-columns:1fr 1fr;column-gap:30px;row-gap:2px}
  table{border-collapse:collapse}
  table.fr{width:100%}
  table.fr td{padding:7px 0;border-bottom:1px dotted #999}
  td.rl{text-align:right;font-size:0.8em;color:#444}
  .ag{display:grid;grid-template-columns:1fr 1fr 1fr;gap:10px 26px}
  .cell{padding:2px 0}
  .ab{font-size:0.7em;color:#555;letter-spacing:0.1em}
  table.kv td{padding:4px 14px 4px 0}
  table.cat{margin-top:18px;width:80%}
  table.cat th,table.cat td{border:1px solid #555;padding:3px 10px;text-align:left;font-size:0.9em}
  .cb{display:grid;grid-template-columns:1fr 1fr 1fr;border-left:1px solid #333;border-top:1px solid #333}
  .box{border-right:1px solid #333;border-bottom:1px solid #333;padding:3px 6px 8px;min-height:48px}
  .bl{font-size:0.62em;color:#333}
  .lb .line{display:flex;align-items:flex-end;border-bottom:1px solid #8aa;min-height:44px;margin:4px 0}
  .ml{width:230px;flex:none;font-size:0.7em;color:#555;padding-bottom:4px}
  .hand{display:inline-block;font-family:'DejaVu Serif';font-style:italic;font-size:1.3em;
    color:#1d2f8f;padding-bottom:2px;white-space:nowrap}
  </style></head><body><div class="card"><div class="top"><div>REPUBULIKA Y'U RWANDA<br>
  REPUBLIC OF RWANDA</div><div>${e(card.type === "id_card" ? "NIDA" : "RNP / POLICE")}<br>${
    e(`Série ${letters(random, 2)} ${digits(random, 6)}`)
  }</div></div><div class="title">${
    card.title.map(e).join("<br>")
  }</div>${body}</div></body></html>`;
}

/** A table of per-row categories with their own dates, printed after the card's values. */
function side(card: Card, random: Random): string {
  const e = escapeHtml;
  const at = (from: number, to: number) => printed(drawDay(random, from, to), card.style);
  if (card.type === "license") {
    const held = (card.fields.find((field) => field.key === "categories")?.shown ?? "").split(" ");
    const rows = ["A", "A1", "B", "C", "D", "E"].map((cat) =>
      held.includes(cat)
        ? `<tr><td>${cat}</td><td>${e(at(2013, 2024))}</td><td>${e(at(2028, 2036))}</td></tr>`
        : `<tr><td>${cat}</td><td></td><td></td></tr>`
    ).join("");
    return `<table class="cat"><tr><th>Cat.</th><th>Valid from / Kuva</th><th>Valid to / Kugeza</th></tr>${rows}</table>`;
  }
  if (card.type === "vehicle_registration") {
    const rows = [0, 1, 2].map((index) =>
      `<tr><td>${index + 1}</td><td>${e(at(2018, 2026))}</td><td>${
        pick(random, ["OK", "PASS", "YEGO"])
      }</td><td>${digits(random, 6)}</td></tr>`
    ).join("");
    return `<table class="cat"><tr><th>#</th><th>Inspection / Isuzuma</th><th>Result</th><th>Receipt</th></tr>${rows}</table>`;
  }
  const rows = [0, 1].map((index) =>
    `<tr><td>${index + 1}</td><td>${e(at(2005, 2015))}</td><td>${e(pick(random, PLACES))}</td></tr>`
  ).join("");
  return `<table class="cat"><tr><th>#</th><th>Previous card / Ikarita yabanje</th><th>Office</th></tr>${rows}</table>`;
}
