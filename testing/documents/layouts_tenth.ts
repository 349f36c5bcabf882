/**
 * Families of the tenth round (issue 26, the field reader), written and
 * generated before the reader was touched for them. Each copies a kind of
 * card or form no earlier round printed, and the values come from this
 * module's own generator: its own people, places and vehicles, names with a
 * second given name (`NSHIMIYIMANA Jean Bosco`), national IDs in spaced
 * groups or whole, plates of cars, motorcycles and the government series,
 * dates as `12-APR-2019`, `12 avril 2019`, `12 Mata 2019`, `12 . 04 . 2019`
 * or `12/04/2019` (one style a card), and labels in Kinyarwanda, French,
 * English, or in invented mixed Kinyarwanda–English abbreviations
 * (`Nyir. / Owner`, `Itar. Yatang.`).
 *
 * - `header_grid_sw`: a grid whose labels are only in header rows, in
 *   Swahili (a language no earlier round printed), each header row over a
 *   row of values;
 * - `booklet_spread`: a two-page booklet photographed open, a gutter in the
 *   middle, labels above values on the left page and `label: value` lines on
 *   the right page;
 * - `leader_slip`: a narrow receipt-like certificate in a typewriter face,
 *   dots typed between each label and its right-aligned value, among
 *   receipt lines (amount paid, cashier) that are no field;
 * - `smallcaps_ruled`: labels in small capitals above values in boxes, a
 *   rule between each row of boxes;
 * - `jitter_hand`: a form filled in by hand, every letter of a value on its
 *   own baseline and slant, over dotted lines;
 * - `footnote_numbers`: values without labels, each with a superscript
 *   number, the numbers explained in a footer in small print;
 * - `qr_vertical_strip`: a QR block beside the fields and a strip of
 *   vertical text along the card's left edge;
 * - `date_boxes`: dates split into day, month and year boxes with tiny
 *   captions under them; the other values under their labels.
 *
 * Split at random ({@link TENTH_SPLIT_SEED}, chosen before the split was
 * seen) into {@link TENTH_DEV} (tuned on) and {@link TENTH_BLIND} (measured
 * only, as totals: its pages, words and errors never opened).
 *
 * Imports nothing from `layouts.ts` (which dispatches to it). Every value is
 * drawn from a seeded generator: no real person's data.
 *
 * @module
 */
import { KINYARWANDA_MONTHS } from "@shared/capabilities/format/format.ts";
import {
  answerOf,
  cardPage,
  type Day,
  drawDay,
  drawVin,
  isoDay,
  maybeDropOneOptional,
  MONTHS_FR,
  MONTHS_SHORT,
  REPUBLIC_HEAD,
  roundDocument,
} from "./round_generator.ts";
import {
  digits,
  escapeHtml,
  familyGuard,
  letters,
  nationalId,
  pick,
  type Random,
  shuffle,
  splitFamilies,
  type SyntheticDocument,
} from "./synthetic.ts";

/** The tenth round's families. */
export const TENTH_FAMILIES = [
  "header_grid_sw",
  "booklet_spread",
  "leader_slip",
  "smallcaps_ruled",
  "jitter_hand",
  "footnote_numbers",
  "qr_vertical_strip",
  "date_boxes",
] as const;

/** A family of the tenth round. */
export type TenthFamily = typeof TENTH_FAMILIES[number];

/** Whether `family` is one of the tenth round's. */
export const isTenthFamily: (family: string) => family is TenthFamily = familyGuard(
  TENTH_FAMILIES,
);

/** The seed that split {@link TENTH_FAMILIES} into dev and blind halves (chosen before the split was seen). */
export const TENTH_SPLIT_SEED = 2026_1127_1552;

/** The half of {@link TENTH_FAMILIES} the reader may be tuned on (`tenth_dev` set). */
export const TENTH_DEV: readonly TenthFamily[] =
  splitFamilies(TENTH_FAMILIES, TENTH_SPLIT_SEED).dev;

/** The other half: measured only, as totals, never studied (`tenth_blind` set). */
export const TENTH_BLIND: readonly TenthFamily[] =
  splitFamilies(TENTH_FAMILIES, TENTH_SPLIT_SEED).blind;

/** The document types a tenth-round document can be. */
export type TenthDocumentType = "vehicle_registration" | "license" | "id_card";

/** How a card's labels are worded: one language, or invented mixed abbreviations. */
type Wording = "rw" | "fr" | "en" | "abbr";
/** The language a card's values (uses, sexes) are printed in. */
type Language = "rw" | "fr" | "en";

// This round's own people, places and vehicles.
const SURNAMES = [
  "NSHIMIYIMANA",
  "MUKANDAYISENGA",
  "HABINSHUTI",
  "UWAMAHORO",
  "NIYITEGEKA",
  "MANIRAGUHA",
  "INGABIRE",
  "TWAGIRAMUNGU",
  "MUHAWENIMANA",
  "NKURUNZIZA",
  "UWERA",
  "SIBOMANA",
  "MUGISHA",
  "KAYITESI",
];
const GIVEN = [
  "Jean Bosco",
  "Marie Claire",
  "Innocent",
  "Chantal",
  "Jean Paul",
  "Alphonsine",
  "Patrick",
  "Esperance",
  "Didier",
  "Immaculée",
  "Valens",
  "Grace",
  "Samuel",
  "Annonciata",
];
const DISTRICTS = ["NYAGATARE", "MUHANGA", "KAYONZA", "NGOMA", "BUGESERA", "HUYE", "NYABIHU"];
const VEHICLES = [
  { make: "MITSUBISHI", model: "PAJERO", wmi: "JMB", moto: false },
  { make: "VOLKSWAGEN", model: "AMAROK", wmi: "WV1", moto: false },
  { make: "ISUZU", model: "DMAX", wmi: "MPA", moto: false },
  { make: "KIA", model: "SPORTAGE", wmi: "KNA", moto: false },
  { make: "RENAULT", model: "DUSTER", wmi: "VF1", moto: false },
  { make: "TVS", model: "APACHE", wmi: "MD6", moto: true },
  { make: "BAJAJ", model: "PULSAR", wmi: "MD2", moto: true },
  { make: "HONDA", model: "ACE", wmi: "LTM", moto: true },
];

type DateStyle = "mon_caps" | "fr_long" | "rw_month" | "dot_spaced" | "slash";

const two = (n: number) => String(n).padStart(2, "0");

function printed(value: Day, style: DateStyle): string {
  switch (style) {
    case "mon_caps":
      return `${two(value.day)}-${MONTHS_SHORT[value.month - 1]}-${value.year}`;
    case "fr_long":
      return `${value.day} ${MONTHS_FR[value.month - 1]} ${value.year}`;
    case "rw_month":
      return `${value.day} ${KINYARWANDA_MONTHS[value.month - 1]} ${value.year}`;
    case "dot_spaced":
      return `${two(value.day)} . ${two(value.month)} . ${value.year}`;
    case "slash":
      return `${two(value.day)}/${two(value.month)}/${value.year}`;
  }
}

/** A person: the name as printed and as read, the sex, the birth day and a matching ID. */
function person(random: Random, bornFrom: number, bornTo: number) {
  const surname = pick(random, SURNAMES);
  const given = pick(random, GIVEN);
  const surnameFirst = random() < 0.6;
  const shown = surnameFirst ? `${surname} ${given}` : `${given} ${surname}`;
  const sex: "M" | "F" = random() < 0.5 ? "F" : "M";
  const born = drawDay(random, bornFrom, bornTo);
  const id = nationalId(random, born.year, sex);
  return { shown, answer: shown.toUpperCase(), sex, born, id };
}

/** A national ID as a card prints it: whole, or in its spaced groups. */
function idShown(random: Random, id: string): string {
  return random() < 0.5
    ? id
    : id.replace(/^(\d)(\d{4})(\d)(\d{7})(\d)(\d{2})$/, "$1 $2 $3 $4 $5 $6");
}

/** One printed field: its answer key (null: printed, never read), wordings, value. */
interface Field {
  key: string | null;
  labels: Record<Wording | "sw", string>;
  shown: string;
  answer?: string;
  optional?: boolean;
  /** A date's day, for the cards that print it in boxes. */
  date?: Day;
}

const USE: Record<string, Record<Language, string>> = {
  private: { rw: "IKINYABIZIGA CY'UMUNTU KU GITI CYE", fr: "USAGE PRIVÉ", en: "PRIVATE" },
  commercial: { rw: "UBUCURUZI", fr: "TRANSPORT DE MARCHANDISES", en: "COMMERCIAL" },
  taxi: { rw: "TAGISI", fr: "TAXI", en: "TAXI" },
  "taxi-moto": { rw: "MOTO TAGISI", fr: "TAXI-MOTO", en: "MOTORCYCLE TAXI" },
  government: { rw: "LETA", fr: "ADMINISTRATION", en: "GOVERNMENT" },
};

function registration(random: Random, language: Language, style: DateStyle): Field[] {
  const vehicle = pick(random, VEHICLES);
  const government = !vehicle.moto && random() < 0.15;
  const use = government
    ? "government"
    : vehicle.moto
    ? pick(random, ["taxi-moto", "private"])
    : pick(random, ["private", "commercial", "taxi", "private"]);
  const plate = government
    ? `GR ${digits(random, 3)} ${letters(random, 1)}`
    : vehicle.moto
    ? `R${letters(random, 1, "ABCDEFGHJKLM")} ${digits(random, 3)} ${letters(random, 1)}`
    : `R${letters(random, 2, "ABCDEFGH")} ${digits(random, 3)} ${letters(random, 1)}`;
  const owner = person(random, 1958, 2004);
  const issued = drawDay(random, 2014, 2025);
  const expires = drawDay(random, 2027, 2034);
  return [
    {
      key: "plate",
      labels: {
        rw: "Numero y'icyapa",
        fr: "Plaque d'immatriculation",
        en: "Registration plate",
        abbr: "Nom. Icy. / Reg",
        sw: "Namba ya usajili",
      },
      shown: plate,
    },
    {
      key: "owner_name",
      labels: {
        rw: "Nyir'ikinyabiziga",
        fr: "Propriétaire",
        en: "Registered owner",
        abbr: "Nyir. / Owner",
        sw: "Jina la mmiliki",
      },
      shown: owner.shown,
      answer: owner.answer,
    },
    {
      key: "owner_national_id",
      labels: {
        rw: "Indangamuntu ya nyirayo",
        fr: "N° d'identité du propriétaire",
        en: "Owner's national ID",
        abbr: "Ind. Nyir. / NID",
        sw: "Kitambulisho cha mmiliki",
      },
      shown: idShown(random, owner.id),
      answer: owner.id,
      optional: true,
    },
    {
      key: "make",
      labels: { rw: "Uruganda", fr: "Marque", en: "Make", abbr: "Urug. / Mk", sw: "Aina" },
      shown: vehicle.make,
    },
    {
      key: "model",
      labels: {
        rw: "Ubwoko",
        fr: "Modèle",
        en: "Model",
        abbr: "Ubw. / Mdl",
        sw: "Mtindo",
      },
      shown: vehicle.model,
    },
    {
      key: "vin",
      labels: {
        rw: "Nimero ya shasi",
        fr: "Numéro de châssis",
        en: "Chassis number",
        abbr: "Shasi / Ch. No",
        sw: "Namba ya chasisi",
      },
      shown: drawVin(random, vehicle.wmi),
    },
    {
      key: "year",
      labels: {
        rw: "Umwaka wakorewemo",
        fr: "Année de fabrication",
        en: "Year of manufacture",
        abbr: "Umw. / Yr",
        sw: "Mwaka wa kutengenezwa",
      },
      shown: String(2006 + Math.floor(random() * 19)),
      optional: true,
    },
    {
      key: "usage",
      labels: {
        rw: "Icyo gikoreshwa",
        fr: "Usage",
        en: "Use",
        abbr: "Ikor. / Use",
        sw: "Matumizi",
      },
      shown: USE[use][language],
      answer: use,
    },
    {
      key: "issue_date",
      labels: {
        rw: "Itariki cyatangiweho",
        fr: "Délivré le",
        en: "Date of issue",
        abbr: "Itar. Yatang. / Iss",
        sw: "Tarehe ya kutolewa",
      },
      shown: printed(issued, style),
      answer: isoDay(issued),
      date: issued,
    },
    {
      key: "expiry_date",
      labels: {
        rw: "Kizarangira ku wa",
        fr: "Valable jusqu'au",
        en: "Valid until",
        abbr: "Irang. / Exp",
        sw: "Mwisho wa matumizi",
      },
      shown: printed(expires, style),
      answer: isoDay(expires),
      date: expires,
      optional: true,
    },
    {
      key: null,
      labels: {
        rw: "Ibara",
        fr: "Couleur",
        en: "Colour",
        abbr: "Ibr. / Col",
        sw: "Rangi",
      },
      shown: pick(random, ["WHITE", "SILVER", "BLUE", "RED", "BLACK"]),
    },
    {
      key: null,
      labels: {
        rw: "Ingano ya moteri",
        fr: "Cylindrée",
        en: "Engine capacity",
        abbr: "Mot. / CC",
        sw: "Ukubwa wa injini",
      },
      shown: `${pick(random, ["125", "150", "1598", "2494", "2998"])} CC`,
    },
  ];
}

function licence(random: Random, _language: Language, style: DateStyle): Field[] {
  const holder = person(random, 1964, 2005);
  const issued = drawDay(random, 2014, 2025);
  const expires = drawDay(random, 2027, 2036);
  const classes = pick(random, [["A"], ["B"], ["A", "B"], ["B", "C"], ["B", "D"], ["C", "D", "E"]]);
  const old = random() < 0.5;
  const number = old
    ? `${digits(random, 2)}${letters(random, 1, "ABCDEFGHJK")}${digits(random, 6)}`
    : `1${holder.born.year}${holder.sex === "F" ? "7" : "8"}${digits(random, 7)}0${
      digits(random, 2)
    }`;
  return [
    {
      key: "full_name",
      labels: {
        rw: "Amazina",
        fr: "Nom et prénoms",
        en: "Full name",
        abbr: "Amaz. / Name",
        sw: "Jina kamili",
      },
      shown: holder.shown,
      answer: holder.answer,
    },
    {
      key: "date_of_birth",
      labels: {
        rw: "Itariki y'amavuko",
        fr: "Né(e) le",
        en: "Date of birth",
        abbr: "Itar. Amav. / DOB",
        sw: "Tarehe ya kuzaliwa",
      },
      shown: printed(holder.born, style),
      answer: isoDay(holder.born),
      date: holder.born,
    },
    {
      key: "licence_number",
      labels: {
        rw: "Nomero y'uruhushya",
        fr: "N° du permis",
        en: "Licence No.",
        abbr: "Nom. Uruh. / DL",
        sw: "Namba ya leseni",
      },
      shown: number,
    },
    {
      key: "national_id",
      labels: {
        rw: "Indangamuntu",
        fr: "N° d'identité",
        en: "National ID",
        abbr: "Ind. / NID",
        sw: "Namba ya kitambulisho",
      },
      shown: idShown(random, holder.id),
      answer: holder.id,
      optional: true,
    },
    {
      key: "categories",
      labels: {
        rw: "Ibyiciro",
        fr: "Catégories",
        en: "Classes",
        abbr: "Icyic. / Cl",
        sw: "Madaraja",
      },
      shown: classes.join(", "),
      answer: classes.join(", "),
    },
    {
      key: "issue_date",
      labels: {
        rw: "Rwatanzwe ku wa",
        fr: "Délivré le",
        en: "Issued",
        abbr: "Itar. Yatang. / Iss",
        sw: "Tarehe ya kutolewa",
      },
      shown: printed(issued, style),
      answer: isoDay(issued),
      date: issued,
    },
    {
      key: "expiry_date",
      labels: {
        rw: "Ruzarangira ku wa",
        fr: "Expire le",
        en: "Expires",
        abbr: "Irang. / Exp",
        sw: "Inaisha tarehe",
      },
      shown: printed(expires, style),
      answer: isoDay(expires),
      date: expires,
      optional: true,
    },
    {
      key: null,
      labels: {
        rw: "Ubwoko bw'amaraso",
        fr: "Groupe sanguin",
        en: "Blood group",
        abbr: "Amar. / BG",
        sw: "Kundi la damu",
      },
      shown: pick(random, ["O+", "A+", "B+", "AB-", "O-"]),
    },
  ];
}

function idCard(random: Random, language: Language, style: DateStyle): Field[] {
  const holder = person(random, 1958, 2007);
  const issued = drawDay(random, 2010, 2025);
  const sexWord = {
    rw: { M: "GABO", F: "GORE" },
    fr: { M: "MASCULIN", F: "FÉMININ" },
    en: { M: "MALE", F: "FEMALE" },
  }[language][holder.sex];
  return [
    {
      key: "full_name",
      labels: {
        rw: "Amazina yose",
        fr: "Nom et prénoms",
        en: "Names",
        abbr: "Amaz. / Name",
        sw: "Majina",
      },
      shown: holder.shown,
      answer: holder.answer,
    },
    {
      key: "national_id",
      labels: {
        rw: "Nomero y'indangamuntu",
        fr: "Numéro national d'identité",
        en: "National ID No.",
        abbr: "Ind. / NID",
        sw: "Namba ya kitambulisho",
      },
      shown: idShown(random, holder.id),
      answer: holder.id,
    },
    {
      key: "date_of_birth",
      labels: {
        rw: "Itariki y'amavuko",
        fr: "Date de naissance",
        en: "Born on",
        abbr: "Itar. Amav. / DOB",
        sw: "Tarehe ya kuzaliwa",
      },
      shown: printed(holder.born, style),
      answer: isoDay(holder.born),
      date: holder.born,
    },
    {
      key: "sex",
      labels: { rw: "Igitsina", fr: "Sexe", en: "Sex", abbr: "Igits. / Sx", sw: "Jinsia" },
      shown: sexWord,
      answer: holder.sex,
    },
    {
      key: "place_of_issue",
      labels: {
        rw: "Aho yatangiwe",
        fr: "Lieu de délivrance",
        en: "Place of issue",
        abbr: "Aho / POI",
        sw: "Mahali ilipotolewa",
      },
      shown: pick(random, DISTRICTS),
      optional: true,
    },
    {
      key: "issue_date",
      labels: {
        rw: "Itariki yatangiweho",
        fr: "Date de délivrance",
        en: "Date of issue",
        abbr: "Itar. Yatang. / Iss",
        sw: "Tarehe ya kutolewa",
      },
      shown: printed(issued, style),
      answer: isoDay(issued),
      date: issued,
    },
    {
      key: null,
      labels: {
        rw: "Aho yavukiye",
        fr: "Lieu de naissance",
        en: "Place of birth",
        abbr: "Yavuk. / POB",
        sw: "Mahali alipozaliwa",
      },
      shown: `${pick(random, DISTRICTS)} / ${pick(random, ["KIGARAMA", "RUKOMA", "GATORE"])}`,
    },
  ];
}

const TITLES: Record<TenthDocumentType, string[][]> = {
  vehicle_registration: [
    ["ICYANGOMBWA CY'IKINYABIZIGA", "CERTIFICATE OF REGISTRATION"],
    ["CARTE D'IMMATRICULATION DU VÉHICULE"],
    ["MOTOR VEHICLE REGISTRATION"],
  ],
  license: [
    ["URUHUSHYA RWO GUTWARA IMODOKA"],
    ["PERMIS DE CONDUIRE / DRIVING PERMIT"],
    ["DRIVER'S LICENCE"],
  ],
  id_card: [
    ["INDANGAMUNTU / NATIONAL ID"],
    ["CARTE D'IDENTITÉ NATIONALE"],
    ["NATIONAL IDENTITY CARD"],
  ],
};

/** Swahili titles, for the card whose labels are in Swahili. */
const TITLES_SW: Record<TenthDocumentType, string> = {
  vehicle_registration: "CHETI CHA USAJILI WA GARI",
  license: "LESENI YA UDEREVA",
  id_card: "KITAMBULISHO CHA TAIFA",
};

/** One document of a type in a tenth-round family: what to render and what must be read from it. */
export function tenthDocument(
  type: TenthDocumentType,
  family: TenthFamily,
  random: Random,
): SyntheticDocument & { edition: "old" | "new" } {
  const language = pick(random, ["rw", "fr", "en"] as Language[]);
  const wording = family === "header_grid_sw"
    ? "sw"
    : pick(random, ["rw", "fr", "en", "abbr", language] as Wording[]);
  const style = pick(
    random,
    ["mon_caps", "fr_long", "rw_month", "dot_spaced", "slash"] as DateStyle[],
  );
  const made = type === "vehicle_registration"
    ? registration(random, language, style)
    : type === "license"
    ? licence(random, language, style)
    : idCard(random, language, style);
  const fields = maybeDropOneOptional(random, made);
  const answer = answerOf(fields);
  const title = family === "header_grid_sw" ? [TITLES_SW[type]] : pick(random, TITLES[type]);
  const rendered = render(family, random, {
    type,
    title,
    fields,
    label: (field) => field.labels[wording],
  });
  return {
    ...roundDocument(type, rendered, answer),
    edition: family === "jitter_hand" || family === "leader_slip" ? "old" : "new",
  } as SyntheticDocument & { edition: "old" | "new" };
}

interface Card {
  type: TenthDocumentType;
  title: string[];
  fields: Field[];
  label: (field: Field) => string;
}

const e = escapeHtml;

function render(family: TenthFamily, random: Random, card: Card): { html: string; width: number } {
  const font = pick(random, ["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Condensed"]);
  const size = 16 + Math.floor(random() * 4);
  const background = pick(random, ["#fbfaf4", "#f2f5ef", "#f7f1e8", "#ffffff", "#eef2f9"]);
  const title = `<div class="title">${card.title.map(e).join("<br>")}</div>`;
  const page = (width: number, css: string, content: string, pageFont = font) => ({
    html: cardPage({ width, background, font: pageFont, size, css, content }),
    width: width + 20,
  });
  const fields = card.fields;
  switch (family) {
    case "header_grid_sw": {
      const perRow = 3 + Math.floor(random() * 2);
      let rows = "";
      for (let start = 0; start < fields.length; start += perRow) {
        const chunk = fields.slice(start, start + perRow);
        const pad = perRow - chunk.length;
        rows += `<tr class="h">${
          chunk.map((field) => `<th>${e(card.label(field).toUpperCase())}</th>`).join("")
        }${"<th></th>".repeat(pad)}</tr><tr>${
          chunk.map((field) => `<td>${e(field.shown)}</td>`).join("")
        }${"<td></td>".repeat(pad)}</tr>`;
      }
      return page(
        940,
        `table.g{border-collapse:collapse;width:100%;margin-top:10px}
  table.g th{font-size:0.62em;font-weight:normal;text-align:left;background:#dfe6dc;
    border:1px solid #667;padding:3px 6px;letter-spacing:0.04em}
  table.g td{font-weight:bold;border:1px solid #667;padding:7px 6px 9px;white-space:nowrap}`,
        `${REPUBLIC_HEAD}<div class="sub">JAMHURI YA RWANDA</div>${title}<table class="g">${rows}</table>`,
      );
    }
    case "booklet_spread": {
      const half = Math.ceil(fields.length / 2);
      const left = fields.slice(0, half).map((field) =>
        `<div class="st"><div class="l">${e(card.label(field))}</div><div class="v">${
          e(field.shown)
        }</div></div>`
      ).join("");
      const colon = pick(random, [":", " :", " -"]);
      const right = fields.slice(half).map((field) =>
        `<div class="ln"><span class="l2">${e(card.label(field))}${colon}</span> <span class="v">${
          e(field.shown)
        }</span></div>`
      ).join("");
      return page(
        1240,
        `.spread{display:flex;gap:0;margin-top:6px}
  .pg{flex:1;padding:10px 26px 30px;position:relative}
  .pg.a{background:linear-gradient(to right,transparent 85%,rgba(0,0,0,0.18))}
  .pg.b{background:linear-gradient(to left,transparent 85%,rgba(0,0,0,0.18))}
  .st{margin:6px 0 10px}.l{font-size:0.7em;color:#444}.l2{color:#333}
  .v{font-weight:bold;white-space:nowrap}.ln{margin:12px 0}
  .no{position:absolute;bottom:6px;font-size:0.7em;color:#555}
  .photo{width:110px;height:130px;background:#c9ccd1;border:1px solid #888;margin-bottom:8px}`,
        `<div class="spread"><div class="pg a">${REPUBLIC_HEAD}${title}${
          card.type === "vehicle_registration" ? "" : '<div class="photo"></div>'
        }${left}<div class="no" style="left:26px">2</div></div><div class="pg b">${
          e(pick(random, ["Ibisobanuro / Particulars", "Suite / Continued", "Amakuru / Details"]))
        }${right}<div class="no" style="right:26px">3</div></div></div>`,
      );
    }
    case "leader_slip": {
      const width = 600 + Math.floor(random() * 80);
      const dots = (label: string, value: string) => {
        const count = Math.max(3, 40 - label.length - value.length);
        return `<div class="ls"><span>${e(label)}</span><span class="d">${
          ".".repeat(count)
        }</span><span class="v">${e(value)}</span></div>`;
      };
      const noise = [
        dots("Receipt No", `${digits(random, 3)}-${digits(random, 6)}`),
        dots("Amount paid RWF", `${digits(random, 2)},${digits(random, 3)}`),
        dots("Cashier", `${letters(random, 2)}${digits(random, 2)}`),
      ];
      const lines = fields.map((field) => dots(card.label(field), field.shown));
      lines.splice(Math.floor(random() * 3), 0, noise[0]);
      lines.push(noise[1], noise[2]);
      return page(
        width,
        `.ls{display:flex;white-space:nowrap;margin:5px 0}.ls .d{flex:1;overflow:hidden;color:#555}
  .v{font-weight:bold}.rule{border-top:1px dashed #333;margin:8px 0}
  .foot{font-size:0.7em;margin-top:10px;text-align:center}`,
        `<div style="text-align:center">REPUBULIKA Y'U RWANDA</div>${title}<div class="rule"></div>${
          lines.join("")
        }<div class="rule"></div><div class="foot">${
          e(`Murakoze / Thank you — ${digits(random, 4)}`)
        }</div>`,
        "DejaVu Sans Mono",
      );
    }
    case "smallcaps_ruled": {
      const columns = 2 + Math.floor(random() * 2);
      let rows = "";
      for (let start = 0; start < fields.length; start += columns) {
        rows += `<div class="row" style="grid-template-columns:repeat(${columns},1fr)">${
          fields.slice(start, start + columns).map((field) =>
            `<div><div class="sc">${e(card.label(field))}</div><div class="bx">${
              e(field.shown)
            }</div></div>`
          ).join("")
        }</div><hr>`;
      }
      return page(
        960,
        `.row{display:grid;gap:18px;margin:8px 0}
  .sc{font-variant:small-caps;font-size:0.78em;color:#333;letter-spacing:0.03em}
  .bx{border:1.5px solid #333;padding:5px 8px;font-weight:bold;white-space:nowrap;margin-top:3px}
  hr{border:0;border-top:2px solid #555;margin:6px 0}`,
        `${REPUBLIC_HEAD}${title}${rows}`,
      );
    }
    case "jitter_hand": {
      const hand = (text: string) =>
        [...text].map((char) => {
          const rise = (random() * 6 - 3).toFixed(1);
          const tilt = (random() * 10 - 5).toFixed(0);
          return char === " "
            ? "<span>&nbsp;</span>"
            : `<span style="display:inline-block;transform:translateY(${rise}px) rotate(${tilt}deg)">${
              e(char)
            }</span>`;
        }).join("");
      const lines = fields.map((field) =>
        `<div class="fl"><span class="l">${
          e(card.label(field))
        }</span><span class="w" style="margin-left:${8 + Math.floor(random() * 40)}px">${
          hand(field.shown)
        }</span></div>`
      ).join("");
      return page(
        960,
        `.fl{display:flex;align-items:flex-end;border-bottom:2px dotted #777;min-height:46px;margin:2px 0}
  .l{flex:none;width:260px;font-size:0.8em;padding-bottom:5px}
  .w{font-family:'DejaVu Serif';font-style:italic;font-size:1.35em;color:${
          pick(random, ["#1a2f9a", "#222", "#2a2a6a"])
        };white-space:nowrap;padding-bottom:3px}`,
        `${REPUBLIC_HEAD}${title}${lines}`,
      );
    }
    case "footnote_numbers": {
      const numbered = shuffle(random, fields.map((_, index) => index + 1));
      const values = fields.map((field, index) =>
        `<div class="fv"><span class="v">${e(field.shown)}</span><sup>${
          numbered[index]
        }</sup></div>`
      ).join("");
      const notes = fields.map((field, index) => ({ n: numbered[index], label: card.label(field) }))
        .sort((a, b) => a.n - b.n)
        .map((note) => `<span class="fn">${note.n} ${e(note.label)}</span>`).join("");
      return page(
        960,
        `.vals{display:grid;grid-template-columns:1fr 1fr;gap:12px 40px;margin:12px 0 22px}
  .v{font-weight:bold;white-space:nowrap}sup{font-size:0.6em;margin-left:3px}
  .foot{border-top:1px solid #555;padding-top:6px;font-size:0.66em;color:#333;
    display:flex;flex-wrap:wrap;gap:2px 22px}`,
        `${REPUBLIC_HEAD}${title}<div class="vals">${values}</div><div class="foot">${notes}</div>`,
      );
    }
    case "qr_vertical_strip": {
      let qr = "";
      for (let cell = 0; cell < 21 * 21; cell++) {
        qr += `<i style="background:${random() < 0.5 ? "#111" : "transparent"}"></i>`;
      }
      const separator = pick(random, [":", ""]);
      const lines = fields.map((field) =>
        `<tr><td class="l">${e(card.label(field))}${separator}</td><td class="v">${
          e(field.shown)
        }</td></tr>`
      ).join("");
      return page(
        980,
        `.wrap{display:flex;gap:18px;align-items:flex-start;margin-top:8px}
  .strip{writing-mode:vertical-rl;transform:rotate(180deg);font-size:0.7em;letter-spacing:0.2em;
    background:#1d4f8f;color:#fff;padding:8px 4px}
  table{border-collapse:collapse;flex:1}td{padding:5px 12px 5px 0}.l{font-weight:bold;font-size:0.85em}
  .v{white-space:nowrap}
  .qr{display:grid;grid-template-columns:repeat(21,7px);grid-auto-rows:7px;border:8px solid #fff;
    outline:1px solid #999;flex:none}.qr i{display:block}`,
        `${REPUBLIC_HEAD}${title}<div class="wrap"><div class="strip">${
          e(`RWANDA • ${letters(random, 3)}${digits(random, 7)} • RWANDA`)
        }</div><table>${lines}</table><div class="qr">${qr}</div></div>`,
      );
    }
    case "date_boxes": {
      const captions = pick(random, [
        ["Umunsi", "Ukwezi", "Umwaka"],
        ["Jour", "Mois", "Année"],
        ["Day", "Month", "Year"],
      ]);
      const cells = fields.map((field) => {
        const value = field.date
          ? `<div class="db">${
            [two(field.date.day), two(field.date.month), String(field.date.year)].map((
              part,
              index,
            ) => `<div><div class="b">${part}</div><div class="cap">${captions[index]}</div></div>`)
              .join("")
          }</div>`
          : `<div class="v">${e(field.shown)}</div>`;
        return `<div class="c"><div class="l">${e(card.label(field))}</div>${value}</div>`;
      }).join("");
      return page(
        960,
        `.grid{display:grid;grid-template-columns:1fr 1fr 1fr;gap:14px 24px;margin-top:10px}
  .l{font-size:0.72em;color:#444;margin-bottom:3px}.v{font-weight:bold;white-space:nowrap}
  .db{display:flex;gap:6px}.b{border:1.5px solid #333;padding:2px 7px;font-weight:bold;text-align:center}
  .cap{font-size:0.5em;color:#555;text-align:center}`,
        `${REPUBLIC_HEAD}${title}<div class="grid">${cells}</div>`,
      );
    }
  }
}
