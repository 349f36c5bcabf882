/**
 * Synthetic Rwandan documents for OCR tests and measurements: vehicle
 * registrations (the "carte jaune"), driving licences, national ID cards and
 * insurance policies, plus things that are not documents (a shop receipt, a
 * car picture made of shapes, a single word). Every person, plate and number
 * is drawn from a seeded generator: no real person's data. Each document
 * comes as HTML (rendered by Chromium in `generate.ts`) with the fields a
 * reader should extract from it.
 *
 * @module
 */
import { vinCheckDigit } from "@shared/capabilities/document_reading/document_fields.ts";

/** The document types ocr_extract reads. */
export type SyntheticDocumentType = "vehicle_registration" | "license" | "id_card" | "policy";

/** One generated document: what to render and what must be read from it. */
export interface SyntheticDocument {
  /** Its type, or `not_a_document` for a receipt, a car picture or a word. */
  type: SyntheticDocumentType | "not_a_document";
  /** What it is, e.g. `receipt` (non-documents) or the document type. */
  kind: string;
  /** A full HTML page. */
  html: string;
  /** The page size to render at. */
  viewport: { width: number; height: number };
  /** The fields a reader must extract (empty for non-documents). */
  fields: Record<string, string>;
}

/** A seeded pseudo-random generator (mulberry32): the same seed gives the same documents. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded generator's next number in [0, 1). */
export type Random = () => number;

/** `items` in an order drawn by `random` (Fisher–Yates: every order equally likely). */
export function shuffle<T>(random: Random, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * `families` split at random by `seed` into a half a reader may be tuned on and a half measured
 * blind (Fisher–Yates: every split equally likely), each half in name order.
 */
export function splitFamilies<T extends string>(
  families: readonly T[],
  seed: number,
): { dev: T[]; blind: T[] } {
  const order = shuffle(seededRandom(seed), families);
  const half = order.length / 2;
  return { dev: order.slice(0, half).sort(), blind: order.slice(half).sort() };
}

/** A guard for one round's family names (each layout module's `is…Family`). */
export function familyGuard<T extends string>(
  families: readonly T[],
): (family: string) => family is T {
  return (family: string): family is T => (families as readonly string[]).includes(family);
}

/** `text` safe inside an HTML element's content. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
}

/** One of `items`, drawn by `random`. */
export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** `count` random digits. */
export function digits(random: Random, count: number): string {
  let out = "";
  for (let i = 0; i < count; i++) out += String(Math.floor(random() * 10));
  return out;
}

/** `count` random letters of `alphabet` (no I, O, Q by default). */
export function letters(
  random: Random,
  count: number,
  alphabet = "ABCDEFGHJKLMNPRSTUVWXYZ",
): string {
  let out = "";
  for (let i = 0; i < count; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

/** Made-up Rwandan surnames. */
export const SURNAMES = [
  "MUKAMANA",
  "NIYONZIMA",
  "UWIMANA",
  "HABIMANA",
  "NSENGIYUMVA",
  "MUGISHA",
  "IRADUKUNDA",
  "UWASE",
  "NDAYISABA",
  "TUYISENGE",
  "KAYITESI",
  "BIZIMANA",
  "NKURUNZIZA",
  "INGABIRE",
  "NIYOMUGABO",
  "MUTONI",
  "RWIGEMA",
  "GATETE",
];
const GIVEN = [
  "ALINE",
  "JEAN CLAUDE",
  "ERIC",
  "GRACE",
  "PATRICK",
  "DIANE",
  "OLIVIER",
  "CHANTAL",
  "EMMANUEL",
  "CLAUDINE",
  "INNOCENT",
  "JOSIANE",
  "FABRICE",
  "SANDRINE",
];
const VEHICLES: Array<{ make: string; model: string; wmi: string }> = [
  { make: "TOYOTA", model: "RAV4", wmi: "JTM" },
  { make: "TOYOTA", model: "COROLLA", wmi: "JTD" },
  { make: "SUZUKI", model: "SWIFT", wmi: "JS2" },
  { make: "HYUNDAI", model: "TUCSON", wmi: "KMH" },
  { make: "NISSAN", model: "XTRAIL", wmi: "JN1" },
  { make: "MITSUBISHI", model: "PAJERO", wmi: "JMB" },
  { make: "VOLKSWAGEN", model: "POLO", wmi: "WVW" },
  { make: "KIA", model: "SPORTAGE", wmi: "KNA" },
  { make: "HONDA", model: "FIT", wmi: "JHM" },
  { make: "ISUZU", model: "DMAX", wmi: "JAA" },
];
/** Districts where cards are issued. */
export const DISTRICTS = [
  "GASABO",
  "KICUKIRO",
  "NYARUGENGE",
  "MUSANZE",
  "HUYE",
  "RUBAVU",
  "RWAMAGANA",
];
const INSURERS = ["SONARWA", "RADIANT", "SORAS", "PRIME INSURANCE", "BRITAM"];
/** The fonts the cards are printed in. */
export const FONTS = ["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Condensed", "DejaVu Sans Mono"];

/** A made-up full name, surname first. */
export function fullName(random: Random): string {
  return `${pick(random, SURNAMES)} ${pick(random, GIVEN)}`;
}

/** A 16-digit national ID: 1, birth year, 7/8 for sex, 7-digit sequence, issue count, 2 check digits. */
export function nationalId(random: Random, birthYear: number, sex: "M" | "F"): string {
  return `1${birthYear}${sex === "F" ? "7" : "8"}${digits(random, 7)}${Math.floor(random() * 3)}${
    digits(random, 2)
  }`;
}

/** A national ID printed in its groups (`1 1985 8 0012345 0 12`). */
export function spacedId(id: string): string {
  return `${id[0]} ${id.slice(1, 5)} ${id[5]} ${id.slice(6, 13)} ${id[13]} ${id.slice(14)}`;
}

/** A VIN with a valid ISO 3779 check digit. */
export function vin(random: Random, wmi: string): string {
  const alphabet = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
  const body = `${wmi}${letters(random, 5, alphabet)}0${pick(random, [..."ABCDEFGHJK"])}${
    letters(random, 1, alphabet)
  }${digits(random, 6)}`;
  return body.slice(0, 8) + vinCheckDigit(body) + body.slice(9);
}

function plate(random: Random): string {
  return `R${letters(random, 2, "ABCDEFGH")} ${digits(random, 3)} ${letters(random, 1)}`;
}

/** A date between two years, ISO and as printed (`DD/MM/YYYY`). */
export function date(
  random: Random,
  fromYear: number,
  toYear: number,
): { iso: string; shown: string } {
  const year = fromYear + Math.floor(random() * (toYear - fromYear + 1));
  const month = 1 + Math.floor(random() * 12);
  const day = 1 + Math.floor(random() * 28);
  const mm = String(month).padStart(2, "0");
  const dd = String(day).padStart(2, "0");
  return { iso: `${year}-${mm}-${dd}`, shown: `${dd}/${mm}/${year}` };
}

function page(
  body: string,
  options: { font: string; background: string; width: number; height: number },
): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  html,body{margin:0;background:#fff}
  .card{box-sizing:border-box;width:${options.width}px;height:${options.height}px;padding:26px 34px;
    background:${options.background};font-family:'${options.font}';color:#111;border:3px solid #333}
  .head{display:flex;align-items:center;gap:18px;border-bottom:2px solid #333;padding-bottom:8px}
  .seal{width:58px;height:58px;border-radius:50%;border:3px double #1b5e20;background:#cde8c8}
  .head div{font-size:19px;font-weight:bold;line-height:1.3}
  .title{font-size:20px;font-weight:bold;margin:12px 0 8px}
  table{border-collapse:collapse;font-size:19px}
  td{padding:4px 10px 4px 0;vertical-align:top}
  td.l{color:#333;width:46%}
  td.v{font-weight:bold}
  </style></head><body><div class="card">${body}</div></body></html>`;
}

function rows(items: Array<[string, string]>): string {
  return `<table>${
    items.map(([label, value]) => `<tr><td class="l">${label}</td><td class="v">${value}</td></tr>`)
      .join("")
  }</table>`;
}

const HEAD = `<div class="head"><span class="seal"></span><div>REPUBULIKA Y'U RWANDA<br>
  REPUBLIC OF RWANDA</div></div>`;

function vehicleRegistration(random: Random): SyntheticDocument {
  const vehicle = pick(random, VEHICLES);
  const sex = random() < 0.5 ? "F" : "M";
  const birth = 1960 + Math.floor(random() * 40);
  const fields = {
    plate: plate(random),
    vin: vin(random, vehicle.wmi),
    make: vehicle.make,
    model: vehicle.model,
    year: String(2005 + Math.floor(random() * 19)),
    owner_name: fullName(random),
    owner_national_id: nationalId(random, birth, sex),
    issue_date: "",
    expiry_date: "",
  };
  const issued = date(random, 2019, 2025);
  const expires = date(random, 2028, 2032);
  fields.issue_date = issued.iso;
  fields.expiry_date = expires.iso;
  const html = page(
    `${HEAD}<div class="title">ICYEMEZO CY'IYANDIKWA RY'IKINYABIZIGA<br>
    CERTIFICATE OF REGISTRATION / CERTIFICAT D'IMMATRICULATION</div>${
      rows([
        ["Plaque / Plate No.", fields.plate],
        ["Chassis / VIN", fields.vin],
        ["Marque / Make", fields.make],
        ["Modèle / Model", fields.model],
        ["Umwaka / Year", fields.year],
        ["Nyirayo / Owner", fields.owner_name],
        ["Indangamuntu / Owner ID", spacedId(fields.owner_national_id)],
        ["Yatanzwe / Date of issue", issued.shown],
        ["Izarangira / Valid until", expires.shown],
      ])
    }`,
    { font: pick(random, FONTS), background: "#f7e67c", width: 900, height: 600 },
  );
  return {
    type: "vehicle_registration",
    kind: "vehicle_registration",
    html,
    viewport: { width: 900, height: 600 },
    fields,
  };
}

function licence(random: Random): SyntheticDocument {
  const sex = random() < 0.5 ? "F" : "M";
  const born = date(random, 1965, 2004);
  const issued = date(random, 2018, 2025);
  const expires = date(random, 2028, 2035);
  const fields = {
    full_name: fullName(random),
    date_of_birth: born.iso,
    national_id: "",
    licence_number: `${digits(random, 2)}${letters(random, 1)}${digits(random, 6)}`,
    categories: pick(random, ["B", "A, B", "B, C", "B, C, D", "A"]),
    issue_date: issued.iso,
    expiry_date: expires.iso,
  };
  fields.national_id = nationalId(random, Number(born.iso.slice(0, 4)), sex);
  const html = page(
    `${HEAD}<div class="title">URUHUSHYA RWO GUTWARA IBINYABIZIGA<br>
    DRIVING LICENCE / PERMIS DE CONDUIRE</div>${
      rows([
        ["Amazina / Names", fields.full_name],
        ["Itariki y'amavuko / Date of birth", born.shown],
        ["Indangamuntu / National ID", spacedId(fields.national_id)],
        ["Nimero / Licence No.", fields.licence_number],
        ["Ibyiciro / Categories", fields.categories],
        ["Yatanzwe / Date of issue", issued.shown],
        ["Izarangira / Expiry", expires.shown],
      ])
    }`,
    { font: pick(random, FONTS), background: "#f3d9e4", width: 900, height: 560 },
  );
  return { type: "license", kind: "license", html, viewport: { width: 900, height: 560 }, fields };
}

function idCard(random: Random): SyntheticDocument {
  const sex = random() < 0.5 ? "F" : "M";
  const born = date(random, 1960, 2006);
  const issued = date(random, 2010, 2025);
  const fields = {
    full_name: fullName(random),
    date_of_birth: born.iso,
    sex,
    place_of_issue: pick(random, DISTRICTS),
    national_id: "",
    issue_date: issued.iso,
  };
  fields.national_id = nationalId(random, Number(born.iso.slice(0, 4)), sex);
  const html = page(
    `${HEAD}<div class="title">INDANGAMUNTU<br>NATIONAL IDENTITY CARD / CARTE D'IDENTITÉ</div>${
      rows([
        ["Amazina / Names", fields.full_name],
        ["Itariki y'amavuko / Date of birth", born.shown],
        ["Igitsina / Sex", sex === "F" ? "Gore / F" : "Gabo / M"],
        ["Aho yatangiwe / Place of issue", fields.place_of_issue],
        ["Itariki yatangiweho / Date of issue", issued.shown],
        ["Indangamuntu / National ID No.", spacedId(fields.national_id)],
      ])
    }`,
    { font: pick(random, FONTS), background: "#dbe9f7", width: 900, height: 540 },
  );
  return { type: "id_card", kind: "id_card", html, viewport: { width: 900, height: 540 }, fields };
}

function policy(random: Random): SyntheticDocument {
  const start = date(random, 2025, 2026);
  const end = date(random, 2027, 2027);
  const fields = {
    insurer: pick(random, INSURERS),
    policy_number: `POL-${digits(random, 4)}-${digits(random, 6)}`,
    insured_name: fullName(random),
    plate: plate(random),
    start_date: start.iso,
    end_date: end.iso,
  };
  const html = page(
    `<div class="head"><span class="seal"></span><div>${fields.insurer}<br>KIGALI, RWANDA</div></div>
    <div class="title">MOTOR INSURANCE POLICY / POLICE D'ASSURANCE AUTOMOBILE<br>
    ICYEMEZO CY'UBWISHINGIZI</div>${
      rows([
        ["Assureur / Insurer", fields.insurer],
        ["Police No. / Policy No.", fields.policy_number],
        ["Assuré / Insured", fields.insured_name],
        ["Plaque / Plate No.", fields.plate],
        ["Du / From", start.shown],
        ["Au / To", end.shown],
      ])
    }`,
    { font: pick(random, FONTS), background: "#ffffff", width: 900, height: 540 },
  );
  return { type: "policy", kind: "policy", html, viewport: { width: 900, height: 540 }, fields };
}

function receipt(random: Random): SyntheticDocument {
  const items = ["Amata 1L", "Umugati", "Isukari 1kg", "Amavuta", "Umuceri 5kg", "Savon"];
  const lines = items.slice(0, 3 + Math.floor(random() * 3)).map((item) =>
    `<tr><td>${item}</td><td style="text-align:right">${
      (1 + Math.floor(random() * 9)) * 500
    }</td></tr>`
  ).join("");
  const html = `<!doctype html><html><body style="margin:0;background:#fff">
  <div style="width:420px;padding:24px;font-family:'DejaVu Sans Mono';font-size:18px">
  <div style="text-align:center;font-weight:bold">SIMBA SUPERMARKET<br>KN 4 Ave, Kigali<br>TIN 10${
    digits(random, 7)
  }</div><hr>
  <table style="width:100%;font-size:18px">${lines}</table><hr>
  <div>TOTAL RWF ${(5 + Math.floor(random() * 30)) * 500}</div><div>MOMO PAY ${
    digits(random, 6)
  }</div><div>${date(random, 2025, 2026).shown} 14:${digits(random, 2)}</div>
  <div style="text-align:center">MURAKOZE / THANK YOU</div></div></body></html>`;
  return {
    type: "not_a_document",
    kind: "receipt",
    html,
    viewport: { width: 470, height: 520 },
    fields: {},
  };
}

function carPicture(random: Random): SyntheticDocument {
  const colour = pick(random, ["#b71c1c", "#1565c0", "#f9a825", "#37474f"]);
  const html = `<!doctype html><html><body style="margin:0">
  <div style="position:relative;width:900px;height:600px;background:linear-gradient(#8ecae6 0 55%,#6b705c 55%)">
   <div style="position:absolute;left:170px;top:250px;width:560px;height:130px;background:${colour};border-radius:40px 60px 20px 20px"></div>
   <div style="position:absolute;left:300px;top:180px;width:280px;height:100px;background:${colour};border-radius:60px 60px 0 0"></div>
   <div style="position:absolute;left:330px;top:200px;width:100px;height:60px;background:#cfe8f3"></div>
   <div style="position:absolute;left:450px;top:200px;width:100px;height:60px;background:#cfe8f3"></div>
   <div style="position:absolute;left:230px;top:340px;width:110px;height:110px;border-radius:50%;background:#222"></div>
   <div style="position:absolute;left:560px;top:340px;width:110px;height:110px;border-radius:50%;background:#222"></div>
   <div style="position:absolute;left:400px;top:330px;width:110px;height:34px;background:#f7e67c;font:bold 22px 'DejaVu Sans';text-align:center;line-height:34px">${
    plate(random)
  }</div>
  </div></body></html>`;
  return {
    type: "not_a_document",
    kind: "car_photo",
    html,
    viewport: { width: 900, height: 600 },
    fields: {},
  };
}

function singleWord(random: Random): SyntheticDocument {
  const word = pick(random, ["AMAHORO", "WELCOME", "BIENVENUE", "MURAKAZA NEZA"]);
  const html = `<!doctype html><html><body style="margin:0">
  <div style="width:800px;height:400px;display:flex;align-items:center;justify-content:center;
  font:bold 80px 'DejaVu Serif';background:#fffbe6">${word}</div></body></html>`;
  return {
    type: "not_a_document",
    kind: "single_word",
    html,
    viewport: { width: 800, height: 400 },
    fields: {},
  };
}

/** Makes one document of a kind from the generator. */
export function syntheticDocument(
  kind:
    | SyntheticDocumentType
    | "receipt"
    | "car_photo"
    | "single_word",
  random: Random,
): SyntheticDocument {
  switch (kind) {
    case "vehicle_registration":
      return vehicleRegistration(random);
    case "license":
      return licence(random);
    case "id_card":
      return idCard(random);
    case "policy":
      return policy(random);
    case "receipt":
      return receipt(random);
    case "car_photo":
      return carPicture(random);
    case "single_word":
      return singleWord(random);
  }
}
