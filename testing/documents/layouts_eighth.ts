/**
 * Families of the eighth round (issue 26, the field reader), written before
 * the reader was touched for them, each unlike every earlier family, with a
 * field generator of their own whose label wordings and languages differ from
 * every earlier round's (Swahili beside Kinyarwanda, French and English;
 * abbreviations such as "Immat.", "N° CNI", "Nom & prénoms", "D.O.B",
 * "Y.O.M."; sex printed as a word; dates as "12 JAN 2027", "12.01.27",
 * "2027-01-12", "12-Jan-2027"):
 *
 * - `header_table`: a ruled table whose header row names the fields and whose
 *   one record row holds the values, split over two or three such tables;
 * - `leader_receipt`: a narrow receipt-like list, each label then a run of
 *   printed dots up to the value ("Plate ........ RAB 123 C");
 * - `prose_attestation`: the values inside sentences ("This certifies that
 *   the vehicle RAB 123 C, chassis …, is registered to …"). Named
 *   `prose_certificate` at first, a sixth-round family's name: `familyDocument`
 *   (layouts.ts) asks the sixth round first, so the `eighth_blind` set held the
 *   sixth round's certificates and these sentences reached no set. Family
 *   names are unique across rounds now (`family_names_test.ts`);
 * - `icon_card`: no printed labels at all, a small drawn symbol before each
 *   value, so only a value's shape (and order) says what it is;
 * - `checkbox_form`: a form with underlined answers and the closed choices
 *   (use, sex, licence classes) printed as ticked and empty boxes;
 * - `split_values`: a narrow value column where long values wrap onto a
 *   second line (names, VINs, addresses, written-out dates).
 *
 * Split at random ({@link EIGHTH_SPLIT_SEED}, Fisher–Yates in
 * `splitFamilies`, written before the split was seen) into
 * {@link EIGHTH_DEV} (tuned on) and {@link EIGHTH_BLIND} (measured before and
 * once at the very end, its pages, words and errors never opened).
 *
 * This module imports nothing from `layouts.ts` (which dispatches to it), so
 * the two stay free of an import cycle. Every value is drawn from a seeded
 * generator: no real person's data.
 *
 * @module
 */
import {
  date,
  digits,
  DISTRICTS,
  escapeHtml,
  familyGuard,
  fullName,
  letters,
  nationalId,
  pick,
  type Random,
  spacedId,
  splitFamilies,
  type SyntheticDocument,
} from "./synthetic.ts";
import {
  cardPage,
  drawChrome,
  drawVehicle,
  dropOptional,
  expectedValue,
  MONTHS_SHORT,
  registrationValues,
  roundDocument,
} from "./round_generator.ts";

/** The eighth round's families. */
export const EIGHTH_FAMILIES = [
  "header_table",
  "leader_receipt",
  "prose_attestation",
  "icon_card",
  "checkbox_form",
  "split_values",
] as const;

/** A family of the eighth round. */
export type EighthFamily = typeof EIGHTH_FAMILIES[number];

/** Whether `family` is one of the eighth round's. */
export const isEighthFamily: (family: string) => family is EighthFamily = familyGuard(
  EIGHTH_FAMILIES,
);

/** The seed that split {@link EIGHTH_FAMILIES} into dev and blind halves (chosen before the split was seen). */
export const EIGHTH_SPLIT_SEED = 2026_1127_1005;

/** The half of {@link EIGHTH_FAMILIES} the reader may be tuned on (`eighth_dev` set). */
export const EIGHTH_DEV: readonly EighthFamily[] =
  splitFamilies(EIGHTH_FAMILIES, EIGHTH_SPLIT_SEED).dev;

/** The other half: measured before and once at the very end, never studied (`eighth_blind` set). */
export const EIGHTH_BLIND: readonly EighthFamily[] =
  splitFamilies(EIGHTH_FAMILIES, EIGHTH_SPLIT_SEED).blind;

/** The document types an eighth-round document can be. */
export type EighthDocumentType = "vehicle_registration" | "license" | "id_card";

type Language = "rw" | "fr" | "en" | "sw";

/** One field: its key in the answer (null: printed, never read), label wordings, the value. */
interface Field {
  key: string | null;
  /** Per language, one or more wordings; a card draws one. */
  labels: Record<Language, string[]>;
  /** The value as printed before any family restyles it (dates `DD/MM/YYYY`). */
  shown: string;
  /** What must be read, when not derived from `shown`. */
  answer?: string;
  /** May be left out of a card. */
  optional?: boolean;
  /** A closed choice: every option as printed (for boxes), the chosen one is `shown`. */
  options?: string[];
}

const MOTOS = [
  { make: "TVS", model: "APACHE", wmi: "MD6" },
  { make: "BAJAJ", model: "PULSAR", wmi: "MD2" },
  { make: "HONDA", model: "ACE", wmi: "LAL" },
];
const CARS = [
  { make: "TOYOTA", model: "COROLLA", wmi: "JTD" },
  { make: "VOLKSWAGEN", model: "POLO", wmi: "WVW" },
  { make: "KIA", model: "SPORTAGE", wmi: "KNA" },
  { make: "ISUZU", model: "DMAX", wmi: "MPA" },
  { make: "MITSUBISHI", model: "CANTER", wmi: "JLB" },
  { make: "RENAULT", model: "DUSTER", wmi: "VF1" },
];

/** How a use is printed, per language. */
const USAGE: Record<string, Record<Language, string>> = {
  private: { rw: "IKY'UMUNTU KU GITI CYE", fr: "PARTICULIER", en: "PRIVATE", sw: "BINAFSI" },
  commercial: { rw: "UBUCURUZI", fr: "UTILITAIRE", en: "COMMERCIAL", sw: "BIASHARA" },
  taxi: { rw: "TAGISI", fr: "TAXI", en: "TAXI", sw: "TEKSI" },
  "taxi-moto": { rw: "MOTO TAGISI", fr: "MOTO-TAXI", en: "MOTORCYCLE TAXI", sw: "BODABODA" },
};

/** How a sex is printed, per language. */
const SEX: Record<"M" | "F", Record<Language, string>> = {
  M: { rw: "GABO", fr: "MASCULIN", en: "MALE", sw: "ME" },
  F: { rw: "GORE", fr: "FÉMININ", en: "FEMALE", sw: "KE" },
};

function registration(random: Random, language: Language): { title: string[]; fields: Field[] } {
  const drawn = drawVehicle(random, { motos: MOTOS, cars: CARS });
  const { moto, vehicle, usage, plate } = drawn;
  const usages = moto ? ["taxi-moto", "private"] : ["private", "commercial", "taxi"];
  const title = pick(random, [
    ["CERTIFICAT D'IMMATRICULATION", "VEHICLE REGISTRATION CERTIFICATE"],
    ["CHETI CHA USAJILI WA GARI", "VEHICLE REGISTRATION CERTIFICATE"],
    ["ICYEMEZO CY'IYANDIKWA RY'IKINYABIZIGA"],
  ]);
  // Values (a use) are printed in the card's first language: no draw.
  const values = registrationValues(random, drawn, {
    made: [2004, 21],
    holderBorn: [1958, 44],
    issued: [2011, 2025],
    expires: [2028, 2034],
  }, (one) => USAGE[one][language]);
  return {
    title,
    fields: [
      {
        key: "plate",
        labels: {
          rw: ["Nomero ya purake", "Purake"],
          fr: ["Immat.", "N° d'immatriculation"],
          en: ["Number plate", "Reg. No.", "Licence plate"],
          sw: ["Namba ya usajili", "Namba ya gari"],
        },
        shown: plate,
      },
      {
        key: "vin",
        labels: {
          rw: ["Nomero ya shasi"],
          fr: ["N° de série", "N° châssis"],
          en: ["Frame No.", "Chassis/VIN", "VIN"],
          sw: ["Namba ya chesisi"],
        },
        shown: values.vin,
      },
      {
        key: "make",
        labels: {
          rw: ["Uruganda", "Ikirango"],
          fr: ["Marque", "Fabricant"],
          en: ["Manufacturer", "Make"],
          sw: ["Aina ya gari", "Mtengenezaji"],
        },
        shown: vehicle.make,
      },
      {
        key: "model",
        labels: {
          rw: ["Ubwoko"],
          fr: ["Type", "Modèle"],
          en: ["Variant", "Model"],
          sw: ["Modeli"],
        },
        shown: vehicle.model,
      },
      {
        key: "year",
        labels: {
          rw: ["Umwaka wakorewemo"],
          fr: ["Millésime", "Année fab."],
          en: ["Y.O.M.", "Mfd."],
          sw: ["Mwaka wa kutengenezwa"],
        },
        shown: values.year,
        optional: true,
      },
      {
        key: "owner_name",
        labels: {
          rw: ["Nyir'ikinyabiziga", "Amazina ya nyirayo"],
          fr: ["Nom & prénoms", "Propriétaire"],
          en: ["Registered keeper", "Owner"],
          sw: ["Jina la mmiliki", "Mmiliki"],
        },
        shown: values.owner_name,
      },
      {
        key: "owner_national_id",
        labels: {
          rw: ["Indangamuntu"],
          fr: ["N° CNI", "CNI"],
          en: ["NIN", "ID No."],
          sw: ["Namba ya kitambulisho", "Kitambulisho"],
        },
        shown: values.owner_national_id,
        optional: true,
      },
      {
        key: "usage",
        labels: {
          rw: ["Icyo gikoreshwa", "Imikoreshereze"],
          fr: ["Affectation", "Usage"],
          en: ["Category of use", "Use"],
          sw: ["Matumizi"],
        },
        shown: values.usage,
        answer: usage,
        options: usages.map((one) => USAGE[one][language]),
      },
      {
        key: "issue_date",
        labels: {
          rw: ["Cyatanzwe ku wa", "Itariki yatangiweho"],
          fr: ["Fait le", "Date d'immatriculation"],
          en: ["Date of reg.", "First registered", "Issued"],
          sw: ["Tarehe ya kutolewa", "Imetolewa"],
        },
        shown: values.issue_date,
      },
      {
        key: "expiry_date",
        labels: {
          rw: ["Kizarangira ku wa"],
          fr: ["Fin de validité", "Valable jusqu'au"],
          en: ["Valid thru", "Expires"],
          sw: ["Mwisho", "Inaisha"],
        },
        shown: values.expiry_date,
        optional: true,
      },
      {
        key: null,
        labels: {
          rw: ["Ibara"],
          fr: ["Couleur"],
          en: ["Colour"],
          sw: ["Rangi"],
        },
        shown: pick(random, ["WHITE", "SILVER", "BLACK", "BLUE", "RED"]),
      },
    ],
  };
}

function licence(random: Random, _language: Language): { title: string[]; fields: Field[] } {
  const sex = random() < 0.5 ? "F" : "M";
  const born = date(random, 1964, 2005);
  const year = Number(born.shown.slice(-4));
  const number = pick(random, [
    `${digits(random, 2)}${letters(random, 1)}${digits(random, 6)}`,
    nationalId(random, year, sex),
    `RW${digits(random, 7)}`,
  ]);
  const classes = pick(random, [["B"], ["A", "B"], ["B", "C"], ["B", "C", "D"], ["A"]]);
  return {
    title: pick(random, [
      ["PERMIS DE CONDUIRE", "DRIVING LICENCE"],
      ["LESENI YA UDEREVA", "DRIVING LICENCE"],
      ["URUHUSHYA RWO GUTWARA IBINYABIZIGA"],
    ]),
    fields: [
      {
        key: "full_name",
        labels: {
          rw: ["Izina ry'umushoferi", "Amazina"],
          fr: ["Nom & prénoms", "Titulaire"],
          en: ["Driver", "Holder"],
          sw: ["Jina kamili", "Jina la dereva"],
        },
        shown: fullName(random),
      },
      {
        key: "date_of_birth",
        labels: {
          rw: ["Itariki yavukiyeho", "Yavutse"],
          fr: ["Né(e) le", "Date de naiss."],
          en: ["D.O.B", "Birth"],
          sw: ["Tarehe ya kuzaliwa"],
        },
        shown: born.shown,
      },
      {
        key: "national_id",
        labels: {
          rw: ["Indangamuntu"],
          fr: ["N° CNI", "CNI"],
          en: ["NIN"],
          sw: ["Namba ya kitambulisho"],
        },
        shown: spacedId(nationalId(random, year, sex)),
        optional: true,
      },
      {
        key: "licence_number",
        labels: {
          rw: ["Nomero y'uruhushya"],
          fr: ["Permis N°", "N° permis"],
          en: ["DL No.", "Licence #"],
          sw: ["Namba ya leseni"],
        },
        shown: number,
      },
      {
        key: "categories",
        labels: {
          rw: ["Ibyiciro"],
          fr: ["Catég.", "Catégories"],
          en: ["Vehicle classes", "Class"],
          sw: ["Daraja"],
        },
        shown: classes.join(", "),
        options: ["A", "B", "C", "D"],
      },
      {
        key: "issue_date",
        labels: {
          rw: ["Rwatanzwe ku wa"],
          fr: ["Fait le", "Délivré le"],
          en: ["Date of issue", "Issued"],
          sw: ["Tarehe ya kutolewa"],
        },
        shown: date(random, 2012, 2025).shown,
      },
      {
        key: "expiry_date",
        labels: {
          rw: ["Ruzarangira ku wa"],
          fr: ["Fin de validité", "Expire le"],
          en: ["Valid thru", "Exp."],
          sw: ["Mwisho", "Inaisha"],
        },
        shown: date(random, 2028, 2036).shown,
        optional: true,
      },
      {
        key: null,
        labels: {
          rw: ["Ubwoko bw'amaraso"],
          fr: ["Groupe sanguin"],
          en: ["Blood group"],
          sw: ["Kundi la damu"],
        },
        shown: pick(random, ["A+", "B+", "O+", "AB-", "O-"]),
      },
    ],
  };
}

function idCard(random: Random, language: Language): { title: string[]; fields: Field[] } {
  const sex = random() < 0.5 ? "F" : "M";
  const born = date(random, 1958, 2006);
  return {
    title: pick(random, [
      ["INDANGAMUNTU", "NATIONAL IDENTITY CARD"],
      ["CARTE NATIONALE D'IDENTITÉ"],
      ["KITAMBULISHO CHA TAIFA", "NATIONAL IDENTITY CARD"],
    ]),
    fields: [
      {
        key: "full_name",
        labels: {
          rw: ["Amazina yose", "Amazina"],
          fr: ["Nom & prénoms", "Nom(s)"],
          en: ["Names", "Full names"],
          sw: ["Majina", "Jina kamili"],
        },
        shown: fullName(random),
      },
      {
        key: "date_of_birth",
        labels: {
          rw: ["Itariki y'amavuko", "Yavutse ku wa"],
          fr: ["Date de naiss.", "Né(e) le"],
          en: ["D.O.B", "Birth date"],
          sw: ["Tarehe ya kuzaliwa"],
        },
        shown: born.shown,
      },
      {
        key: "sex",
        labels: {
          rw: ["Igitsina"],
          fr: ["Sexe"],
          en: ["Gender", "Sex"],
          sw: ["Jinsia"],
        },
        shown: SEX[sex][language],
        answer: sex,
        options: [SEX.M[language], SEX.F[language]],
      },
      {
        key: "place_of_issue",
        labels: {
          rw: ["Aho yatangiwe"],
          fr: ["Lieu de délivrance", "Lieu"],
          en: ["Issued at", "Place of issue"],
          sw: ["Mahali ilipotolewa"],
        },
        shown: pick(random, DISTRICTS),
        optional: true,
      },
      {
        key: "issue_date",
        labels: {
          rw: ["Itariki yatangiweho"],
          fr: ["Fait le", "Délivrée le"],
          en: ["Date of issue", "Issued"],
          sw: ["Tarehe ya kutolewa"],
        },
        shown: date(random, 2010, 2025).shown,
      },
      {
        key: "national_id",
        labels: {
          rw: ["Nomero y'indangamuntu"],
          fr: ["N° CNI", "N° d'identité"],
          en: ["NIN", "ID No."],
          sw: ["Namba ya kitambulisho"],
        },
        shown: spacedId(nationalId(random, Number(born.shown.slice(-4)), sex)),
      },
    ],
  };
}

/** What a printed value must read as (the answer's normalised form). */
function expected(field: Field): string {
  // A sex and a use carry their answer: they are printed in this round's own words.
  return field.answer || expectedValue(field.key!, field.shown);
}

/** A card's dates, in one format the card keeps for all of them. */
type DateStyle = "spaced_month" | "dotted_short" | "iso" | "dash_month" | "slash";

function dateAs(style: DateStyle, shown: string): string {
  const [dd, mm, yyyy] = shown.split("/");
  const month = MONTHS_SHORT[Number(mm) - 1];
  switch (style) {
    case "spaced_month":
      return `${dd} ${month} ${yyyy}`;
    case "dotted_short":
      return `${dd}.${mm}.${yyyy.slice(2)}`;
    case "iso":
      return `${yyyy}-${mm}-${dd}`;
    case "dash_month":
      return `${dd}-${month[0]}${month.slice(1).toLowerCase()}-${yyyy}`;
    case "slash":
      return shown;
  }
}

/** A printed item: its label (in the card's languages), the value as printed, the field. */
interface Item {
  field: Field;
  key: string | null;
  label: string;
  shown: string;
}

/** One document of a type in an eighth-round family: what to render and what must be read from it. */
export function eighthDocument(
  type: EighthDocumentType,
  family: EighthFamily,
  random: Random,
): SyntheticDocument & { edition: "old" | "new" } {
  const languages = pick(
    random,
    [["sw"], ["fr"], ["en"], ["rw"], ["sw", "en"], ["rw", "fr"], ["fr", "en"], [
      "rw",
      "sw",
      "en",
    ]] as Language[][],
  );
  // Values (a use, a sex) are printed in the card's first language.
  const made = type === "vehicle_registration"
    ? registration(random, languages[0])
    : type === "license"
    ? licence(random, languages[0])
    : idCard(random, languages[0]);
  const fields = dropOptional(random, made.fields);
  // Two-digit years only where the century is plain from the value (a birth date needs four).
  const style = pick(
    random,
    ["spaced_month", "dotted_short", "iso", "dash_month", "slash"] as DateStyle[],
  );
  const answer: Record<string, string> = {};
  for (const field of fields) if (field.key) answer[field.key] = expected(field);
  const items: Item[] = fields.map((field) => ({
    field,
    key: field.key,
    label: languages.map((language) => pick(random, field.labels[language])).join(" / "),
    shown: field.key && /date|birth/.test(field.key)
      ? dateAs(
        field.key === "date_of_birth" && style === "dotted_short" ? "slash" : style,
        field.shown,
      )
      : field.shown,
  }));
  return roundDocument(
    type,
    renderEighth(family, random, made.title, items, languages, type),
    answer,
  );
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Sentences that carry a card's values, in the card's first language. */
function prose(type: EighthDocumentType, items: Item[], language: Language): string[] {
  const e = escapeHtml;
  const v = (key: string) => {
    const item = items.find((one) => one.key === key);
    return item ? `<b>${e(item.shown)}</b>` : null;
  };
  const word = language === "fr"
    ? {
      plate: "immatriculé",
      chassis: "châssis",
      owner: "appartient à",
      id: "titulaire de la CNI",
      use: "pour un usage",
      issued: "Fait le",
      until: "valable jusqu'au",
      year: "fabriqué en",
      born: "né(e) le",
      holder: "Le titulaire",
      number: "porte le permis n°",
      classes: "des catégories",
      sex: "de sexe",
      at: "à",
    }
    : language === "sw"
    ? {
      plate: "yenye namba",
      chassis: "chesisi",
      owner: "inamilikiwa na",
      id: "mwenye kitambulisho",
      use: "kwa matumizi ya",
      issued: "Imetolewa tarehe",
      until: "hadi tarehe",
      year: "iliyotengenezwa mwaka",
      born: "aliyezaliwa tarehe",
      holder: "Mwenye leseni",
      number: "ana leseni namba",
      classes: "ya daraja",
      sex: "jinsia",
      at: "huko",
    }
    : {
      plate: "bearing plate",
      chassis: "chassis",
      owner: "is registered to",
      id: "holder of ID",
      use: "for",
      issued: "Issued on",
      until: "and valid until",
      year: "built in",
      born: "born on",
      holder: "The holder",
      number: "holds licence number",
      classes: "for classes",
      sex: "sex",
      at: "at",
    };
  const sentences: string[] = [];
  const join = (...parts: (string | null)[]) => parts.filter(Boolean).join(" ");
  if (type === "vehicle_registration") {
    const opening = language === "fr"
      ? "Il est certifié que le véhicule"
      : language === "sw"
      ? "Inathibitishwa kwamba gari"
      : "This certifies that the vehicle";
    sentences.push(
      join(
        opening,
        v("make"),
        v("model"),
        v("year") ? `${word.year} ${v("year")}` : null,
        `${word.plate} ${v("plate")},`,
        `${word.chassis} ${v("vin")},`,
      ),
      join(
        word.owner,
        `${v("owner_name")}${v("owner_national_id") ? "," : ""}`,
        v("owner_national_id") ? `${word.id} ${v("owner_national_id")}` : null,
        `${word.use} ${v("usage")}.`,
      ),
      join(
        word.issued,
        v("issue_date"),
        v("expiry_date") ? `${word.until} ${v("expiry_date")}` : null,
      ) + ".",
    );
  } else if (type === "license") {
    sentences.push(
      join(
        word.holder,
        `${v("full_name")},`,
        `${word.born} ${v("date_of_birth")},`,
        v("national_id") ? `${word.id} ${v("national_id")},` : null,
        `${word.number} ${v("licence_number")}`,
        `${word.classes} ${v("categories")}.`,
      ),
      join(
        word.issued,
        v("issue_date"),
        v("expiry_date") ? `${word.until} ${v("expiry_date")}` : null,
      ) + ".",
    );
  } else {
    sentences.push(
      join(
        v("full_name") + ",",
        `${word.sex} ${v("sex")},`,
        `${word.born} ${v("date_of_birth")},`,
        `${word.id} ${v("national_id")}.`,
      ),
      join(
        word.issued,
        v("issue_date"),
        v("place_of_issue") ? `${word.at} ${v("place_of_issue")}` : null,
      ) + ".",
    );
  }
  return sentences;
}

/** A small drawn symbol per field (no letters): what an icon-only card prints for a label. */
const ICONS: Record<string, string> = {
  plate: "border:2px solid #333;border-radius:2px;width:22px;height:11px",
  vin: "border:2px solid #333;border-radius:50%;width:14px;height:14px",
  make: "background:#333;width:14px;height:14px;transform:rotate(45deg)",
  model: "border:2px solid #333;width:14px;height:14px;transform:rotate(45deg)",
  year: "background:#333;border-radius:50%;width:8px;height:8px",
  owner_name: "background:#333;border-radius:50% 50% 2px 2px;width:14px;height:16px",
  full_name: "background:#333;border-radius:50% 50% 2px 2px;width:14px;height:16px",
  owner_national_id: "border:2px solid #333;width:18px;height:12px;border-left-width:6px",
  national_id: "border:2px solid #333;width:18px;height:12px;border-left-width:6px",
  usage: "border-left:8px solid transparent;border-right:8px solid transparent;" +
    "border-bottom:14px solid #333;width:0;height:0",
  issue_date: "border:2px solid #333;border-top-width:5px;width:14px;height:12px",
  expiry_date: "background:#333;border-top:5px solid #900;width:14px;height:10px",
  date_of_birth: "border:2px dashed #333;border-radius:50%;width:14px;height:14px",
  licence_number: "background:#333;width:20px;height:6px",
  categories: "border:2px solid #333;border-radius:6px;width:10px;height:16px",
  sex: "border:3px double #333;border-radius:50%;width:12px;height:12px",
  place_of_issue: "background:#333;border-radius:50% 50% 50% 0;width:12px;height:12px;" +
    "transform:rotate(-45deg)",
  other: "background:#999;width:12px;height:3px",
};

function renderEighth(
  family: EighthFamily,
  random: Random,
  title: string[],
  items: Item[],
  languages: Language[],
  type: EighthDocumentType,
): { html: string; width: number } {
  const { font, size, background, gap } = drawChrome(
    random,
    ["#ffffff", "#fdf6e3", "#eef3fb", "#f1f8ee", "#fbeff2"],
  );
  let width = pick(random, [950, 1050]);
  const head = `<div class="head"><span class="seal"></span><div>${
    pick(random, ["REPUBULIKA Y'U RWANDA", "RÉPUBLIQUE DU RWANDA", "REPUBLIC OF RWANDA"])
  }</div></div><div class="title">${title.map(escapeHtml).join("<br>")}</div>`;
  let body = "";
  let css = "";
  const e = escapeHtml;
  const named = items.filter((item) => item.shown !== "");
  switch (family) {
    case "header_table": {
      const perRow = pick(random, [3, 4]);
      body = chunk(named, perRow).map((row) =>
        `<table class="t"><tr>${row.map((item) => `<th>${e(item.label)}</th>`).join("")}</tr><tr>${
          row.map((item) => `<td>${e(item.shown)}</td>`).join("")
        }</tr></table>`
      ).join("");
      css = `.t{width:100%;border-collapse:collapse;margin:${gap + 4}px 0;table-layout:fixed}
        .t th{font-size:0.72em;font-weight:normal;text-align:left;background:#ddd;color:#222;
        border:1px solid #666;padding:4px 6px;vertical-align:top}
        .t td{font-weight:bold;border:1px solid #666;padding:${gap}px 6px;white-space:nowrap;
        overflow:hidden}`;
      break;
    }
    case "leader_receipt": {
      width = pick(random, [560, 640]);
      const mono = random() < 0.6;
      body = `<div class="r">${
        named.map((item) => {
          const room = Math.max(3, 44 - item.label.length - item.shown.length);
          return `<div class="f">${e(item.label)} ${".".repeat(room)} ${e(item.shown)}</div>`;
        }).join("")
      }</div><div class="foot">${"-".repeat(30)}<br>${
        e(pick(random, ["Merci", "Asante", "Murakoze", "Thank you"]))
      }</div>`;
      css = `.r{${mono ? "font-family:'DejaVu Sans Mono';" : ""}font-size:0.92em;margin-top:8px}
        .f{margin:${Math.max(2, gap - 2)}px 0;white-space:nowrap;overflow:hidden}
        .foot{text-align:center;margin-top:12px;font-size:0.8em;color:#444}`;
      break;
    }
    case "prose_attestation": {
      width = 1100;
      const sentences = prose(type, named, languages[0]);
      body = `<div class="p">${sentences.map((text) => `<p>${text}</p>`).join("")}</div>
        <div class="sig">${e(pick(random, ["Registrar", "Umwanditsi", "Le Directeur", "Msajili"]))}
        </div>`;
      css = `.p{font-family:'DejaVu Serif';line-height:1.7;margin:14px 10px;text-align:justify}
        .p p{margin:${gap}px 0}.p b{font-weight:bold}
        .sig{text-align:right;margin:24px 30px 6px;font-style:italic}`;
      break;
    }
    case "icon_card": {
      const columns = random() < 0.5 ? 1 : 2;
      body = `<div class="g">${
        named.map((item) =>
          `<div class="f"><span class="i" style="${
            ICONS[item.key ?? "other"] ?? ICONS.other
          }"></span><span class="v">${e(item.shown)}</span></div>`
        ).join("")
      }</div>`;
      css = `.g{display:grid;grid-template-columns:repeat(${columns},1fr);column-gap:40px;
        margin-top:10px}.f{display:flex;align-items:center;gap:16px;margin:${gap + 2}px 0}
        .i{display:inline-block;flex:none}.v{font-weight:bold;white-space:nowrap}`;
      break;
    }
    case "checkbox_form": {
      const tick = pick(random, ["X", "✓", "✔"]);
      const box = (checked: boolean) => `<span class="cb">${checked ? tick : ""}</span>`;
      body = `<div class="form">${
        named.map((item) => {
          if (item.field.options) {
            const chosen = item.key === "categories" ? item.shown.split(", ") : [item.shown];
            return `<div class="f"><span class="l">${e(item.label)}</span> ${
              item.field.options.map((option) =>
                `<span class="o">${box(chosen.includes(option))} ${e(option)}</span>`
              ).join("")
            }</div>`;
          }
          return `<div class="f"><span class="l">${e(item.label)}</span> <span class="u">${
            e(item.shown)
          }</span></div>`;
        }).join("")
      }</div>`;
      css = `.f{margin:${gap + 3}px 0;display:flex;align-items:baseline;gap:10px}
        .l{min-width:200px;color:#333}.u{flex:1;border-bottom:1px solid #444;font-family:'DejaVu Sans Mono';
        padding-left:8px}.o{margin-right:22px;white-space:nowrap}
        .cb{display:inline-block;width:0.95em;height:0.95em;border:1.5px solid #222;text-align:center;
        line-height:0.95em;font-weight:bold;vertical-align:middle}`;
      break;
    }
    case "split_values": {
      const column = pick(random, [150, 180]);
      body = `<table class="t">${
        named.map((item) => {
          // A long value breaks at its space nearest the middle, or mid-token when it has none.
          let shown = e(item.shown);
          if (item.shown.length > 11) {
            const spaces = [...item.shown.matchAll(/ /g)].map((match) => match.index!);
            const middle = item.shown.length / 2;
            const at = spaces.length
              ? spaces.reduce((a, b) => Math.abs(a - middle) < Math.abs(b - middle) ? a : b)
              : Math.floor(middle);
            shown = `${e(item.shown.slice(0, at).trim())}<br>${e(item.shown.slice(at).trim())}`;
          }
          return `<tr><td class="l">${e(item.label)}</td><td class="v">${shown}</td></tr>`;
        }).join("")
      }</table>`;
      css = `.t{border-collapse:collapse;margin-top:6px}.t td{padding:${gap}px 16px ${gap}px 0;
        vertical-align:top}.l{color:#333;font-size:0.9em;white-space:nowrap}
        .v{font-weight:bold;width:${column}px;line-height:1.25}`;
      break;
    }
  }
  const html = cardPage({
    width,
    background,
    font,
    size,
    css,
    content: `${head}${body}`,
    // A blue seal, the republic's name on one line.
    seal:
      `.seal{width:50px;height:50px;border-radius:50%;border:3px double #0d47a1;background:#d6e4f5}
  .head div{font-weight:bold}`,
  });
  return { html, width };
}
