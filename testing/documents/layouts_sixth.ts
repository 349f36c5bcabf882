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
  escapeHtml,
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
  MONTHS_EN,
  MONTHS_FR,
  MONTHS_RW,
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

/** The registration's labels, by field. */
const REGISTRATION_WORDING: RoundWording = {
  plate: { rw: "Nimero iranga ikinyabiziga", fr: "Numéro d'immatriculation", en: "Reg. mark" },
  vin: { rw: "Nimero ya shasi", fr: "Numéro de châssis", en: "Chassis number" },
  make: { rw: "Ikirango", fr: "Marque", en: "Make" },
  model: { rw: "Ubwoko", fr: "Type commercial", en: "Model" },
  year: { rw: "Umwaka w'ikorwa", fr: "Année de fabrication", en: "Year of make" },
  owner_name: { rw: "Nyir'ikinyabiziga", fr: "Propriétaire", en: "Holder" },
  owner_national_id: { rw: "Indangamuntu ya nyirayo", fr: "N° d'identité", en: "Holder's ID" },
  usage: { rw: "Icyo gikoreshwa", fr: "Usage", en: "Use" },
  issue_date: { rw: "Itariki yatangiweho", fr: "Date de délivrance", en: "Date of issue" },
  expiry_date: { rw: "Izarangira", fr: "Date d'expiration", en: "Expiry date" },
};

/** The licence's labels, by field. */
const LICENCE_WORDING: RoundWording = {
  full_name: { rw: "Amazina y'uwahawe uruhushya", fr: "Nom et prénoms", en: "Holder's name" },
  date_of_birth: { rw: "Yavutse ku wa", fr: "Né(e) le", en: "Date of birth" },
  national_id: { rw: "Indangamuntu", fr: "Numéro national", en: "National ID" },
  licence_number: { rw: "Nimero y'uruhushya", fr: "Numéro du permis", en: "Licence number" },
  categories: { rw: "Ibyiciro", fr: "Catégories", en: "Categories" },
  issue_date: { rw: "Rwatanzwe ku wa", fr: "Délivré le", en: "Date of issue" },
  expiry_date: { rw: "Ruzarangira ku wa", fr: "Valable jusqu'au", en: "Valid until" },
};

/** The ID card's labels, by field. */
const ID_CARD_WORDING: RoundWording = {
  full_name: { rw: "Amazina", fr: "Noms", en: "Names" },
  date_of_birth: { rw: "Itariki y'amavuko", fr: "Date de naissance", en: "Date of birth" },
  sex: { rw: "Igitsina", fr: "Sexe", en: "Sex" },
  place_of_issue: { rw: "Aho yatangiwe", fr: "Lieu de délivrance", en: "Place of issue" },
  issue_date: { rw: "Itariki yatangiweho", fr: "Date de délivrance", en: "Date of issue" },
  national_id: { rw: "Indangamuntu", fr: "Numéro national", en: "National ID No." },
};

function registration(random: Random): { title: [string, string]; fields: Field[] } {
  const values = registrationValues(random, drawVehicle(random, { motos: MOTOS, cars: CARS }), {
    made: [2006, 19],
    holderBorn: [1960, 40],
    issued: [2012, 2025],
    expires: [2028, 2033],
  }, usageInAnyLanguage(random));
  return {
    title: ["ICYEMEZO CY'IYANDIKWA RY'IKINYABIZIGA", "CERTIFICATE OF REGISTRATION"],
    fields: [
      ...wordedFields("vehicle_registration", values, REGISTRATION_WORDING),
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
  const values = licenceValues(random);
  return {
    title: ["URUHUSHYA RWO GUTWARA IBINYABIZIGA", "DRIVING LICENCE"],
    fields: [
      ...wordedFields("license", values, LICENCE_WORDING),
      {
        key: null,
        labels: { rw: "Ubwoko bw'amaraso", fr: "Groupe sanguin", en: "Blood group" },
        shown: pick(random, ["O+", "A+", "B-", "AB+"]),
      },
    ],
  };
}

function idCard(random: Random): { title: [string, string]; fields: Field[] } {
  const values = idCardValues(random);
  return {
    title: ["INDANGAMUNTU", "NATIONAL IDENTITY CARD"],
    fields: [
      ...wordedFields("id_card", values, ID_CARD_WORDING),
      {
        key: null,
        labels: { rw: "Uburebure", fr: "Taille", en: "Height" },
        shown: `1.${60 + Math.floor(random() * 30)} m`,
      },
    ],
  };
}

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

function titleCase(text: string): string {
  return text.toLowerCase().replace(
    /(^|[\s\-'])(\p{L})/gu,
    (_, before, letter) => before + letter.toUpperCase(),
  );
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
  const fields = dropOptional(random, made.fields);
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
  const printed = printedFields(fields, languages, (shown) => dateAs(style, shown));
  let items = printed.items;
  if (family === "title_case") {
    items = shuffle(random, items).map((item) =>
      item.key === "plate" || item.key === "vin" || item.key === "sex" ||
        item.key?.includes("national_id") || item.key === "licence_number" ||
        item.key === "categories"
        ? item
        : { ...item, shown: random() < 0.7 ? titleCase(item.shown) : item.shown.toLowerCase() }
    );
  }
  return roundDocument(
    type,
    renderSixth(family, random, made.title, items, languages),
    printed.answer,
  );
}

function renderSixth(
  family: SixthFamily,
  random: Random,
  title: [string, string],
  items: Item[],
  languages: Language[],
): { html: string; width: number } {
  const { font, size, background, gap } = drawChrome(
    random,
    ["#ffffff", "#fdf6d8", "#eaf2fb", "#f1f7ec", "#f8e9ef"],
  );
  const titleLines = random() < 0.5 ? title : [pick(random, title)];
  let width = pick(random, [950, 1100]);
  let head = `${REPUBLIC_HEAD}<div class="title">${titleLines.map(escapeHtml).join("<br>")}</div>`;
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
  const html = cardPage({ width, background, font, size, css, content: `${head}${body}` });
  return { html, width };
}
