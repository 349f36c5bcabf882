/**
 * Families of the sixth round (issue 26), written before the field reader
 * was touched for them, each unlike every earlier family in a way real
 * East-African registration cards, ID cards, licences and certificates are:
 *
 * - `value_above`: large values printed above their small labels;
 * - `coded_legend`: EU-style field codes ("A", "C.1", "D.1") beside the
 *   values, their meaning in a legend elsewhere on the card;
 * - `sandwich_bilingual`: one language's label over the value and the
 *   other's under it ("Nyir'ikinyabiziga" / value / "Propriétaire");
 * - `comb_boxes`: values written one character per box, as on forms;
 * - `prose_certificate`: a certificate in running prose ("This is to
 *   certify that the vehicle RAB 123 C … owned by …");
 * - `title_case`: values printed in Title Case or lower case, every field's
 *   order shuffled, dates written out ("12th March 2024", "12 Werurwe 2024");
 * - `value_first`: each line the value first, its label after it in brackets
 *   or after a dash;
 * - `cropped_title`: a card photographed close, its header and title cut
 *   off, the fields in a grid.
 *
 * Optional fields are left out now and then; dates come in long written forms
 * in English, French and Kinyarwanda beside the numeric ones. Split at random
 * ({@link SIXTH_SPLIT_SEED}, Fisher–Yates, chosen before the split was seen)
 * into {@link SIXTH_DEV} (tuned on) and {@link SIXTH_BLIND} (measured before
 * and once at the very end, its pages, words and errors never opened).
 *
 * Every value is drawn from a seeded generator: no real person's data.
 *
 * @module
 */
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
  splitFamilies,
  type SyntheticDocument,
  vin,
} from "./synthetic.ts";

/** The sixth round's families. */
export const SIXTH_FAMILIES = [
  "value_above",
  "coded_legend",
  "sandwich_bilingual",
  "comb_boxes",
  "prose_certificate",
  "title_case",
  "value_first",
  "cropped_title",
] as const;

/** A family of the sixth round. */
export type SixthFamily = typeof SIXTH_FAMILIES[number];

/** The seed that split {@link SIXTH_FAMILIES} into dev and blind halves (chosen before the split was seen). */
export const SIXTH_SPLIT_SEED = 2026_1127_0415;

/** The half of {@link SIXTH_FAMILIES} the reader may be tuned on (`sixth_dev` set). */
export const SIXTH_DEV: readonly SixthFamily[] =
  splitFamilies(SIXTH_FAMILIES, SIXTH_SPLIT_SEED).dev;

/** The other half: measured before and once at the very end, never studied (`sixth_blind` set). */
export const SIXTH_BLIND: readonly SixthFamily[] =
  splitFamilies(SIXTH_FAMILIES, SIXTH_SPLIT_SEED).blind;

/** The document types a sixth-round document can be. */
export type SixthDocumentType = "vehicle_registration" | "license" | "id_card";

type Language = "rw" | "fr" | "en";

/** One field: its key in the answer (null: printed, never read), labels, the value as printed. */
interface Field {
  key: string | null;
  labels: Record<Language, string>;
  /** The value as printed before any family restyles it (dates `DD/MM/YYYY`). */
  shown: string;
  /** May be left out of a card. */
  optional?: boolean;
}

const MOTOS = [
  { make: "HONDA", model: "CG125", wmi: "LAL" },
  { make: "BAJAJ", model: "BOXER", wmi: "MD2" },
  { make: "TVS", model: "APACHE", wmi: "MD6" },
];
const CARS = [
  { make: "TOYOTA", model: "RAV4", wmi: "JTM" },
  { make: "TOYOTA", model: "COROLLA", wmi: "JTD" },
  { make: "NISSAN", model: "PATROL", wmi: "JN1" },
  { make: "MITSUBISHI", model: "PAJERO", wmi: "JMB" },
  { make: "VOLKSWAGEN", model: "POLO", wmi: "WVW" },
  { make: "ISUZU", model: "DMAX", wmi: "MPA" },
];

/** How a use is printed, per language. */
const USAGE: Record<string, Record<Language, string>> = {
  private: { rw: "BWITE", fr: "PRIVÉ", en: "PRIVATE" },
  commercial: { rw: "UBUCURUZI", fr: "COMMERCIAL", en: "COMMERCIAL" },
  taxi: { rw: "TAXI", fr: "TAXI", en: "TAXI" },
  "taxi-moto": { rw: "TAXI-MOTO", fr: "MOTO-TAXI", en: "TAXI-MOTO" },
};

function registration(random: Random): { title: [string, string]; fields: Field[] } {
  const moto = random() < 0.35;
  const vehicle = pick(random, moto ? MOTOS : CARS);
  const usage = moto
    ? pick(random, ["taxi-moto", "private"])
    : pick(random, ["private", "commercial", "taxi"]);
  const plate = moto
    ? `R${letters(random, 1, "ABCDEFGH")} ${digits(random, 3)} ${letters(random, 1)}`
    : `R${letters(random, 2, "ABCDEFGH")} ${digits(random, 3)} ${letters(random, 1)}`;
  const sex = random() < 0.5 ? "F" : "M";
  return {
    title: ["ICYEMEZO CY'IYANDIKWA RY'IKINYABIZIGA", "CERTIFICATE OF REGISTRATION"],
    fields: [
      {
        key: "plate",
        labels: {
          rw: "Nimero iranga ikinyabiziga",
          fr: "Numéro d'immatriculation",
          en: "Reg. mark",
        },
        shown: plate,
      },
      {
        key: "vin",
        labels: { rw: "Nimero ya shasi", fr: "Numéro de châssis", en: "Chassis number" },
        shown: vin(random, vehicle.wmi),
      },
      { key: "make", labels: { rw: "Ikirango", fr: "Marque", en: "Make" }, shown: vehicle.make },
      {
        key: "model",
        labels: { rw: "Ubwoko", fr: "Type commercial", en: "Model" },
        shown: vehicle.model,
      },
      {
        key: "year",
        labels: { rw: "Umwaka w'ikorwa", fr: "Année de fabrication", en: "Year of make" },
        shown: String(2006 + Math.floor(random() * 19)),
        optional: true,
      },
      {
        key: "owner_name",
        labels: { rw: "Nyir'ikinyabiziga", fr: "Propriétaire", en: "Holder" },
        shown: fullName(random),
      },
      {
        key: "owner_national_id",
        labels: { rw: "Indangamuntu ya nyirayo", fr: "N° d'identité", en: "Holder's ID" },
        shown: spacedId(nationalId(random, 1960 + Math.floor(random() * 40), sex)),
        optional: true,
      },
      {
        key: "usage",
        labels: { rw: "Icyo gikoreshwa", fr: "Usage", en: "Use" },
        shown: USAGE[usage][pick(random, ["rw", "fr", "en"] as Language[])],
        optional: true,
      },
      {
        key: "issue_date",
        labels: { rw: "Itariki yatangiweho", fr: "Date de délivrance", en: "Date of issue" },
        shown: date(random, 2012, 2025).shown,
      },
      {
        key: "expiry_date",
        labels: { rw: "Izarangira", fr: "Date d'expiration", en: "Expiry date" },
        shown: date(random, 2028, 2033).shown,
        optional: true,
      },
      {
        key: null,
        labels: { rw: "Ibara", fr: "Couleur", en: "Colour" },
        shown: pick(random, ["WHITE", "SILVER", "BLACK", "BLUE", "RED"]),
      },
      {
        key: null,
        labels: { rw: "Ingufu za moteri", fr: "Cylindrée", en: "Engine capacity" },
        shown: `${pick(random, ["125", "150", "1500", "1800", "2400", "2800"])} cc`,
      },
    ],
  };
}

function licence(random: Random): { title: [string, string]; fields: Field[] } {
  const sex = random() < 0.5 ? "F" : "M";
  const born = date(random, 1965, 2004);
  const year = Number(born.shown.slice(-4));
  const number = random() < 0.5
    ? `${digits(random, 2)}${letters(random, 1)}${digits(random, 6)}`
    : nationalId(random, year, sex);
  return {
    title: ["URUHUSHYA RWO GUTWARA IBINYABIZIGA", "DRIVING LICENCE"],
    fields: [
      {
        key: "full_name",
        labels: { rw: "Amazina y'uwahawe uruhushya", fr: "Nom et prénoms", en: "Holder's name" },
        shown: fullName(random),
      },
      {
        key: "date_of_birth",
        labels: { rw: "Yavutse ku wa", fr: "Né(e) le", en: "Date of birth" },
        shown: born.shown,
      },
      {
        key: "national_id",
        labels: { rw: "Indangamuntu", fr: "Numéro national", en: "National ID" },
        shown: spacedId(nationalId(random, year, sex)),
        optional: true,
      },
      {
        key: "licence_number",
        labels: { rw: "Nimero y'uruhushya", fr: "Numéro du permis", en: "Licence number" },
        shown: number,
      },
      {
        key: "categories",
        labels: { rw: "Ibyiciro", fr: "Catégories", en: "Categories" },
        shown: pick(random, ["B", "A, B", "B, C", "B, C, D", "A"]),
      },
      {
        key: "issue_date",
        labels: { rw: "Rwatanzwe ku wa", fr: "Délivré le", en: "Date of issue" },
        shown: date(random, 2012, 2025).shown,
      },
      {
        key: "expiry_date",
        labels: { rw: "Ruzarangira ku wa", fr: "Valable jusqu'au", en: "Valid until" },
        shown: date(random, 2028, 2035).shown,
        optional: true,
      },
      {
        key: null,
        labels: { rw: "Ubwoko bw'amaraso", fr: "Groupe sanguin", en: "Blood group" },
        shown: pick(random, ["O+", "A+", "B-", "AB+"]),
      },
    ],
  };
}

function idCard(random: Random): { title: [string, string]; fields: Field[] } {
  const sex = random() < 0.5 ? "F" : "M";
  const born = date(random, 1960, 2006);
  return {
    title: ["INDANGAMUNTU", "NATIONAL IDENTITY CARD"],
    fields: [
      {
        key: "full_name",
        labels: { rw: "Amazina", fr: "Noms", en: "Names" },
        shown: fullName(random),
      },
      {
        key: "date_of_birth",
        labels: { rw: "Itariki y'amavuko", fr: "Date de naissance", en: "Date of birth" },
        shown: born.shown,
      },
      {
        key: "sex",
        labels: { rw: "Igitsina", fr: "Sexe", en: "Sex" },
        shown: sex === "F" ? pick(random, ["F", "Gore / F"]) : pick(random, ["M", "Gabo / M"]),
      },
      {
        key: "place_of_issue",
        labels: { rw: "Aho yatangiwe", fr: "Lieu de délivrance", en: "Place of issue" },
        shown: pick(random, DISTRICTS),
        optional: true,
      },
      {
        key: "issue_date",
        labels: { rw: "Itariki yatangiweho", fr: "Date de délivrance", en: "Date of issue" },
        shown: date(random, 2010, 2025).shown,
      },
      {
        key: "national_id",
        labels: { rw: "Indangamuntu", fr: "Numéro national", en: "National ID No." },
        shown: spacedId(nationalId(random, Number(born.shown.slice(-4)), sex)),
      },
      {
        key: null,
        labels: { rw: "Uburebure", fr: "Taille", en: "Height" },
        shown: `1.${60 + Math.floor(random() * 30)} m`,
      },
    ],
  };
}

/** What a printed value must read as (the answer's normalised form), from its `shown` value. */
function expected(key: string, shown: string): string {
  if (/date|birth/.test(key)) {
    const [day, month, year] = shown.split("/");
    return `${year}-${month}-${day}`;
  }
  if (key === "national_id" || key === "owner_national_id") return shown.replace(/\s/g, "");
  if (key === "sex") return shown.slice(-1);
  if (key === "usage") {
    return Object.entries(USAGE).find(([, shownAs]) => Object.values(shownAs).includes(shown))![0];
  }
  return shown.toUpperCase();
}

const MONTHS_EN = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const MONTHS_FR = [
  "janvier",
  "février",
  "mars",
  "avril",
  "mai",
  "juin",
  "juillet",
  "août",
  "septembre",
  "octobre",
  "novembre",
  "décembre",
];
const MONTHS_RW = [
  "Mutarama",
  "Gashyantare",
  "Werurwe",
  "Mata",
  "Gicurasi",
  "Kamena",
  "Nyakanga",
  "Kanama",
  "Nzeri",
  "Ukwakira",
  "Ugushyingo",
  "Ukuboza",
];

function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${["th", "st", "nd", "rd"][day % 10] ?? "th"}`;
}

/** A card's dates, in one format a card keeps for all of them. */
type DateStyle = "slash" | "dot" | "ordinal_en" | "en_month_first" | "fr_long" | "rw_long";

function dateAs(style: DateStyle, shown: string): string {
  const [dd, mm, yyyy] = shown.split("/");
  const day = Number(dd);
  const month = Number(mm) - 1;
  switch (style) {
    case "slash":
      return shown;
    case "dot":
      return `${dd}.${mm}.${yyyy}`;
    case "ordinal_en":
      return `${ordinal(day)} ${MONTHS_EN[month]} ${yyyy}`;
    case "en_month_first":
      return `${MONTHS_EN[month]} ${day}, ${yyyy}`;
    case "fr_long":
      return `${day} ${MONTHS_FR[month]} ${yyyy}`;
    case "rw_long":
      return `${day} ${MONTHS_RW[month]} ${yyyy}`;
  }
}

/** A printed item: label (in the card's languages), value as printed, key. */
interface Item {
  key: string | null;
  labels: Record<Language, string>;
  label: string;
  shown: string;
}

function titleCase(text: string): string {
  return text.toLowerCase().replace(
    /(^|[\s\-'])(\p{L})/gu,
    (_, before, letter) => before + letter.toUpperCase(),
  );
}

function shuffle<T>(random: Random, items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** The EU-style codes a `coded_legend` card prints beside each field. */
const CODES: Record<string, string> = {
  plate: "A",
  issue_date: "B",
  owner_name: "C.1",
  owner_national_id: "C.2",
  make: "D.1",
  model: "D.3",
  vin: "E",
  year: "F",
  usage: "J",
  expiry_date: "H",
  full_name: "1",
  date_of_birth: "2",
  national_id: "3",
  licence_number: "5",
  categories: "9",
  sex: "2.1",
  place_of_issue: "4.1",
};

/** One document of a type in a sixth-round family: what to render and what must be read from it. */
export function sixthDocument(
  type: SixthDocumentType,
  family: SixthFamily,
  random: Random,
): SyntheticDocument & { edition: "old" | "new" } {
  const made = type === "vehicle_registration"
    ? registration(random)
    : type === "license"
    ? licence(random)
    : idCard(random);
  // Leave out up to two optional fields: real cards and editions differ in what they print.
  let fields = made.fields;
  for (let drop = Math.floor(random() * 3); drop > 0; drop--) {
    const optional = fields.filter((field) => field.optional);
    if (optional.length === 0) break;
    const gone = pick(random, optional);
    fields = fields.filter((field) => field !== gone);
  }
  const languages = pick(
    random,
    [["rw", "en"], ["rw", "fr"], ["fr", "en"], ["en"], ["rw", "fr", "en"]] as Language[][],
  );
  const style = pick(
    random,
    family === "title_case" || family === "prose_certificate"
      ? ["ordinal_en", "en_month_first", "fr_long", "rw_long"] as DateStyle[]
      : ["slash", "dot", "ordinal_en", "fr_long", "rw_long"] as DateStyle[],
  );
  const answer: Record<string, string> = {};
  for (const field of fields) if (field.key) answer[field.key] = expected(field.key, field.shown);
  let items: Item[] = fields.map((field) => ({
    key: field.key,
    labels: field.labels,
    label: languages.map((language) => field.labels[language]).join(" / "),
    shown: field.key && /date|birth/.test(field.key) ? dateAs(style, field.shown) : field.shown,
  }));
  if (family === "title_case") {
    items = shuffle(random, items).map((item) =>
      item.key === "plate" || item.key === "vin" || item.key === "sex" ||
        item.key?.includes("national_id") || item.key === "licence_number" ||
        item.key === "categories"
        ? item
        : { ...item, shown: random() < 0.7 ? titleCase(item.shown) : item.shown.toLowerCase() }
    );
  }
  const { html, width } = renderSixth(family, random, made.title, items, languages);
  return {
    type,
    kind: type,
    html,
    viewport: { width, height: 1000 },
    fields: answer,
    edition: "new",
  };
}

function renderSixth(
  family: SixthFamily,
  random: Random,
  title: [string, string],
  items: Item[],
  languages: Language[],
): { html: string; width: number } {
  const font = pick(random, FONTS);
  const size = 15 + Math.floor(random() * 5);
  const background = pick(random, ["#ffffff", "#fdf6d8", "#eaf2fb", "#f1f7ec", "#f8e9ef"]);
  const gap = 4 + Math.floor(random() * 8);
  const titleLines = random() < 0.5 ? title : [pick(random, title)];
  let width = pick(random, [950, 1100]);
  let head = `<div class="head"><span class="seal"></span><div>
  REPUBULIKA Y'U RWANDA<br>REPUBLIC OF RWANDA</div></div><div class="title">${
    titleLines.map(escapeHtml).join("<br>")
  }</div>`;
  let body = "";
  let css = "";
  const e = escapeHtml;
  switch (family) {
    case "value_above": {
      const columns = pick(random, [2, 3]);
      width = columns === 3 ? 1150 : width;
      body = `<div class="g">${
        items.map((item) =>
          `<div class="f"><div class="v">${e(item.shown)}</div><div class="l">${
            e(item.label)
          }</div></div>`
        ).join("")
      }</div>`;
      css = `.g{display:grid;grid-template-columns:repeat(${columns},1fr);column-gap:30px}
        .f{margin:${gap + 2}px 0;border-top:1px solid #999;padding-top:4px}
        .v{font-weight:bold;font-size:1.15em;white-space:nowrap}
        .l{font-size:0.7em;color:#555;border-top:1px dotted #aaa;margin-top:2px}`;
      break;
    }
    case "coded_legend": {
      const coded = items.map((item, index) => ({
        ...item,
        code: item.key ? CODES[item.key] ?? `X.${index}` : `Z.${index}`,
      }));
      body = `<div class="g">${
        coded.map((item) =>
          `<div class="f"><span class="c">${e(item.code)}.</span> <span class="v">${
            e(item.shown)
          }</span></div>`
        ).join("")
      }</div><div class="legend">${
        shuffle(random, coded).map((item) => `<span>${e(item.code)}. ${e(item.label)}</span>`)
          .join("; ")
      }</div>`;
      css = `.g{display:grid;grid-template-columns:1fr 1fr;column-gap:34px}
        .f{margin:${gap}px 0}.c{color:#444;font-size:0.85em}.v{font-weight:bold}
        .legend{margin-top:18px;border-top:1px solid #777;padding-top:6px;font-size:0.7em;color:#333}`;
      break;
    }
    case "sandwich_bilingual": {
      const [top, bottom] = languages.length > 1 ? languages : ["rw", "fr"] as Language[];
      const columns = pick(random, [1, 2]);
      body = `<div class="g">${
        items.map((item) =>
          `<div class="f"><div class="l">${e(item.labels[top])}</div><div class="v">${
            e(item.shown)
          }</div><div class="l i">${e(item.labels[bottom])}</div></div>`
        ).join("")
      }</div>`;
      css = `.g{display:grid;grid-template-columns:repeat(${columns},1fr);column-gap:40px}
        .f{margin:${gap}px 0}.l{font-size:0.75em;color:#333}.i{font-style:italic}
        .v{font-weight:bold;padding:2px 0 2px 12px;white-space:nowrap}`;
      break;
    }
    case "comb_boxes": {
      const comb = (text: string) =>
        `<span class="comb">${
          [...text].map((char) => `<span class="b">${char === " " ? "&nbsp;" : e(char)}</span>`)
            .join("")
        }</span>`;
      const combed = (item: Item) =>
        item.key && !/date|birth/.test(item.key) && item.shown.length <= 24 && random() < 0.8;
      body = `<div class="list">${
        items.map((item) =>
          `<div class="f"><div class="l">${e(item.label)}</div>${
            combed(item) ? comb(item.shown) : `<span class="v">${e(item.shown)}</span>`
          }</div>`
        ).join("")
      }</div>`;
      css = `.f{margin:${gap}px 0}.l{font-size:0.8em;color:#333;margin-bottom:2px}
        .comb{display:inline-flex}.b{display:inline-block;width:1.15em;height:1.45em;text-align:center;
        border:1px solid #666;margin-right:-1px;font-weight:bold;line-height:1.45em}.v{font-weight:bold}`;
      break;
    }
    case "prose_certificate": {
      width = pick(random, [1000, 1150]);
      const of = (key: string) => items.find((item) => item.key === key)?.shown;
      const parts: string[] = [];
      const add = (text: string | false | undefined) => text && parts.push(text);
      const b = (text: string) => `<b>${e(text)}</b>`;
      if (of("plate")) {
        add(`This is to certify that the vehicle with registration number ${b(of("plate")!)}`);
        add(of("make") && `make ${b(of("make")!)}`);
        add(of("model") && `model ${b(of("model")!)}`);
        add(of("vin") && `chassis number ${b(of("vin")!)}`);
        add(of("year") && `manufactured in ${b(of("year")!)}`);
        add(`is registered in the name of ${b(of("owner_name") ?? "")}`);
        add(of("owner_national_id") && `holder of national ID ${b(of("owner_national_id")!)}`);
        add(of("usage") && `for ${b(of("usage")!)} use`);
        add(`on ${b(of("issue_date") ?? "")}`);
        add(of("expiry_date") && `and this certificate is valid until ${b(of("expiry_date")!)}`);
      } else if (of("licence_number")) {
        add(`This licence number ${b(of("licence_number")!)} is issued to ${b(of("full_name")!)}`);
        add(`born on ${b(of("date_of_birth")!)}`);
        add(of("national_id") && `national ID ${b(of("national_id")!)}`);
        add(`entitled to drive vehicles of categories ${b(of("categories")!)}`);
        add(`Issued on ${b(of("issue_date")!)}`);
        add(of("expiry_date") && `valid until ${b(of("expiry_date")!)}`);
      } else {
        add(`We certify that ${b(of("full_name")!)}, sex ${b(of("sex")!)}`);
        add(`born on ${b(of("date_of_birth")!)}`);
        add(`holds national ID number ${b(of("national_id")!)}`);
        add(`issued on ${b(of("issue_date")!)}`);
        add(of("place_of_issue") && `at ${b(of("place_of_issue")!)}`);
      }
      body = `<p class="prose">${parts.join(", ")}.</p><p class="sign">Signed: the Registrar</p>`;
      css =
        `.prose{line-height:1.7;text-align:justify;margin:14px 0}.sign{text-align:right;font-style:italic}`;
      break;
    }
    case "title_case": {
      const columns = pick(random, [1, 2]);
      body = `<div class="g">${
        items.map((item) =>
          `<div class="f"><span class="l">${e(item.label)}:</span> <span class="v">${
            e(item.shown)
          }</span></div>`
        ).join("")
      }</div>`;
      css = `.g{display:grid;grid-template-columns:repeat(${columns},1fr);column-gap:34px}
        .f{margin:${gap}px 0}.l{color:#444}.v{font-weight:${pick(random, ["normal", "bold"])}}`;
      break;
    }
    case "value_first": {
      const bracket = random() < 0.5;
      body = `<div class="list">${
        items.map((item) =>
          `<div class="f"><span class="v">${e(item.shown)}</span> <span class="l">${
            bracket ? `(${e(item.label)})` : `— ${e(item.label)}`
          }</span></div>`
        ).join("")
      }</div>`;
      css =
        `.f{margin:${gap}px 0}.v{font-weight:bold}.l{font-size:0.8em;color:#555;margin-left:10px}`;
      break;
    }
    case "cropped_title": {
      // Photographed close: the header and title are off the picture.
      head = "";
      const columns = pick(random, [2, 3]);
      width = columns === 3 ? 1150 : width;
      body = `<div class="g">${
        items.map((item) =>
          `<div class="f"><span class="l">${e(item.label)}</span><br><span class="v">${
            e(item.shown)
          }</span></div>`
        ).join("")
      }</div>`;
      css = `.g{display:grid;grid-template-columns:repeat(${columns},1fr);column-gap:30px}
        .f{margin:${gap}px 0}.l{font-size:0.8em;color:#333}.v{font-weight:bold;white-space:nowrap}`;
      break;
    }
  }
  const html = `<!doctype html><html><head><meta charset="utf-8"><style>
  html,body{margin:0;background:#fff}
  .card{box-sizing:border-box;width:${width}px;padding:22px 30px;background:${background};
    font-family:'${font}';font-size:${size}px;color:#111;border:2px solid #444;overflow:hidden}
  .head{display:flex;align-items:center;gap:18px;border-bottom:2px solid #333;padding-bottom:8px}
  .seal{width:54px;height:54px;border-radius:50%;border:3px double #1b5e20;background:#cde8c8}
  .head div{font-weight:bold;line-height:1.3}
  .title{font-weight:bold;margin:10px 0 8px;font-size:${size + 3}px}
  ${css}
  </style></head><body><div class="card">${head}${body}</div></body></html>`;
  return { html, width };
}
