/**
 * The Insurance agent offline, motor insurance end to end: a photo of the
 * registration card (carte jaune) → `ocr_extract` → the fields shown to
 * confirm or correct ("year 2016", "plate RAB 123 C", in en/rw/fr) → usage,
 * cover (and the declared value for comprehensive), period →
 * `price_insurance` → the insurers' quotes compared (premium, base, fees and
 * VAT itemised) → `momo_charge` (its metadata names the quote) → the
 * certificate goes out when the payment settles (`certificates.ts`).
 *
 * Underwriting exceptions go to staff with the data attached
 * (`notify_staff`): a vehicle no tariff covers (too old), commercial use,
 * a card still unreadable after two photos. A blurred photo gets a retry
 * message, a picture that is not a card is refused, a file that came through
 * empty or damaged is asked for again: never a wrong quote.
 * "menu"/"0" leaves from anywhere (the router); a typed number picks an
 * option of the last question.
 *
 * @module
 */
import { formatMoney, formatNumber } from "@shared/capabilities/format/mod.ts";
import { shortenTitle, TITLE_LIMITS } from "@shared/contract/titles.ts";
import type { Language } from "@shared/contract/language.ts";
import type { ToolResult } from "@shared/contract/mod.ts";
import { z } from "zod";
import { callWithConfirmation } from "@shared/registry/offline_steps.ts";
import { callTyped, readKeptResult, readResult } from "@shared/registry/tool_call.ts";
import {
  type FlowMemory,
  keptCallMemory,
  typedFlow,
  type TypedTurn,
} from "@shared/registry/flow_memory.ts";
import type {
  AgentReply,
  OfflineFlow,
  OfflineStep,
  OfflineToolCaller,
  OfflineTurn,
} from "@shared/registry/pack.ts";
import { insurancePayee, insurancePayeeName } from "./settings.ts";
import { say } from "./texts.ts";
import { ocrExtract, ocrRefusal } from "@shared/capabilities/document_reading/mod.ts";
import { priceInsurance } from "./price_insurance.ts";

// The payments pack's tools, as this flow reads them: the fields it uses of their outputs,
// parsed on reading (a pack does not import another pack's definitions).
const momoCharge = {
  name: "momo_charge",
  output: z.object({
    payment_link: z.string(),
    ussd_code: z.string(),
    momo_ref: z.string(),
    amount: z.number(),
    payee: z.string(),
  }),
};
const paymentStatus = {
  name: "payment_status",
  output: z.object({
    payments: z.array(z.object({
      status: z.enum(["pending", "settled", "failed", "expired"]),
      amount: z.number(),
      payee: z.string().nullable(),
    })),
  }),
};

const vehicleDetails = z.object({
  plate: z.string().optional(),
  make: z.string().optional(),
  model: z.string().optional(),
  year: z.number().optional(),
  owner: z.string().optional(),
  vin: z.string().optional(),
  /** The use the card states (`taxi-moto` on a moto taxi's card), confirmed with the rest. */
  usage: z.enum(["private", "commercial", "taxi", "taxi-moto", "government"]).optional(),
});

/** A use the card can state. */
type CardUsage = NonNullable<VehicleDetails["usage"]>;

const USAGE_TEXT: Record<CardUsage, Parameters<typeof say>[0]> = {
  private: "usagePrivate",
  commercial: "usageCommercial",
  taxi: "usageTaxi",
  "taxi-moto": "usageTaxiMoto",
  government: "usageGovernment",
};

/** A use as the card or the customer words it, or null. */
export function usageOf(text: string): CardUsage | null {
  const upper = text.toUpperCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  if (/TAXI[\s-]*MOTO|MOTO[\s-]*TAXI|MOTO ITWARA/.test(upper)) return "taxi-moto";
  if (/TAXI|TAGISI/.test(upper)) return "taxi";
  if (/PRIV|BWITE|GITI/.test(upper)) return "private";
  if (/COMMERC|UBUCURUZI|HIRE|LOCATION|TRANSPORT/.test(upper)) return "commercial";
  if (/GOVERN|GOUVERN|ADMINISTRATION|\bLETA\b/.test(upper)) return "government";
  return null;
}

/** What the card gave, as confirmed or corrected by the customer. */
export type VehicleDetails = z.output<typeof vehicleDetails>;

/** One insurer's quote, as the flow keeps it. */
const keptQuote = z.object({
  id: z.string(),
  insurer: z.string(),
  premium: z.number(),
  base: z.number(),
  tax: z.number(),
  fees: z.number(),
  feeText: z.string(),
});

type KeptQuote = z.output<typeof keptQuote>;

const STEPS = ["photo", "confirm", "usage", "cover", "value", "period", "pick", "paying"] as const;

/**
 * What the insurance flow keeps between turns (version 1). A change that
 * older conversations cannot be read as bumps the version in
 * {@link insuranceFlowMemory}.
 */
const insuranceMemory = z.object({
  step: z.enum(STEPS).nullish(),
  tries: z.int().nonnegative().optional(),
  extractionId: z.string().nullish(),
  imageRef: z.string().nullish(),
  vehicle: vehicleDetails.nullish(),
  doubtful: z.array(z.string()).optional(),
  usage: z.enum(["private", "commercial"]).nullish(),
  cover: z.enum(["third_party", "comprehensive"]).nullish(),
  value: z.number().nullish(),
  days: z.int().positive().nullish(),
  quotes: z.array(keptQuote).optional(),
  chosen: keptQuote.nullish(),
  momoRef: z.string().nullish(),
  ussd: z.string().nullish(),
  payee: z.string().nullish(),
  options: z.array(z.string()).optional(),
  ...keptCallMemory,
});

type InsuranceMemory = z.output<typeof insuranceMemory>;

// Memory is merged between turns: a new request clears what the last one kept.
const CLEAR: InsuranceMemory = {
  step: null,
  tries: 0,
  extractionId: null,
  imageRef: null,
  vehicle: null,
  doubtful: [],
  usage: null,
  cover: null,
  value: null,
  days: null,
  quotes: [],
  chosen: null,
  momoRef: null,
  ussd: null,
  payee: null,
  options: [],
  lastResult: null,
};

const REQUIRED: ReadonlyArray<keyof VehicleDetails> = ["plate", "make", "model", "year"];

const FIELD_NAMES: Record<Language, Record<string, string>> = {
  en: { plate: "plate", make: "make", model: "model", year: "year", owner: "owner", usage: "use" },
  rw: {
    plate: "pulaki",
    make: "ikirango",
    model: "ubwoko",
    year: "umwaka",
    owner: "nyirayo",
    usage: "icyo gikoreshwa",
  },
  fr: {
    plate: "plaque",
    make: "marque",
    model: "modèle",
    year: "année",
    owner: "propriétaire",
    usage: "usage",
  },
};

// "year 2016", "umwaka: 2016", "année=2016": the field's word in any language, then its value.
const CORRECTIONS: ReadonlyArray<[keyof VehicleDetails, RegExp]> = [
  ["year", /^(?:year|umwaka|ann[ée]e)\s*[:=]?\s*(.+)$/i],
  ["plate", /^(?:plate|number plate|pulaki|plaque|immatriculation)\s*[:=]?\s*(.+)$/i],
  ["make", /^(?:make|brand|ikirango|marque)\s*[:=]?\s*(.+)$/i],
  ["model", /^(?:model|ubwoko|mod[èe]le)\s*[:=]?\s*(.+)$/i],
  ["owner", /^(?:owner|name|nyirayo|amazina|propri[ée]taire|nom)\s*[:=]?\s*(.+)$/i],
  ["usage", /^(?:use|usage|utilisation|icyo gikoreshwa|ikoreshwa)\s*[:=]?\s*(.+)$/i],
];

const YES =
  /^(yes|yeah|ok|okay|correct|right|yego|ni byo|nibyo|ego|oui|exact|c'est exact|d'accord)\b/i;

// Makes sold only as motorcycles in Rwanda: their cards are priced as motos.
const MOTO_MAKES = /^(tvs|bajaj|haojue|lifan|boxer|royal enfield|ktm)\b/i;

/**
 * A Rwandan plate written the usual way, or null when it is not one: a car
 * (`RAB 123 C`), a motorcycle (`RB 123 A`), government (`GR 123 A`), police
 * (`RNP 123 A`) or defence (`RDF 123 A`); docs/ocr.md gives the series.
 */
export function normalizePlate(text: string): string | null {
  const match = /^(RNP|RDF|GR|R[A-Z]{1,2})([0-9]{3})([A-Z])$/.exec(
    text.replace(/[\s-]/g, "").toUpperCase(),
  );
  return match ? `${match[1]} ${match[2]} ${match[3]}` : null;
}

/** Whether a plate is a motorcycle's: one letter after the R (`RB 123 A`). */
export function isMotorcyclePlate(plate: string | undefined): boolean {
  return plate !== undefined && /^R[A-Z] [0-9]{3} [A-Z]$/.test(plate);
}

/** The latest model year a card can show on `now`: next year's models are sold from mid-year. */
function maxYear(now: Date): number {
  return now.getUTCFullYear() + 1;
}

/**
 * The corrections a message makes, or an error phrase when one value is wrong; null when none.
 * `now` is the turn's clock: it bounds the model year.
 */
export function parseCorrections(
  text: string,
  options: { now: Date },
): { changes: Partial<VehicleDetails> } | { error: "badPlate" | "badYear" } | null {
  const changes: Partial<VehicleDetails> = {};
  for (const part of text.split(/[,;\n]+/).map((piece) => piece.trim()).filter(Boolean)) {
    for (const [field, pattern] of CORRECTIONS) {
      const match = pattern.exec(part);
      if (!match) continue;
      const value = match[1].trim().slice(0, 40);
      if (field === "plate") {
        const plate = normalizePlate(value);
        if (!plate) return { error: "badPlate" };
        changes.plate = plate;
      } else if (field === "year") {
        const year = /^[0-9]{4}$/.test(value) ? Number(value) : NaN;
        if (!(year >= 1950 && year <= maxYear(options.now))) return { error: "badYear" };
        changes.year = year;
      } else if (field === "usage") {
        const usage = usageOf(value);
        if (usage) changes.usage = usage;
      } else {
        changes[field] = value.toUpperCase();
      }
      break;
    }
  }
  return Object.keys(changes).length ? { changes } : null;
}

/** A reply whose options are remembered, so a typed number picks one. */
function ask(text: string, buttons: Array<{ id: string; title: string }> = []) {
  return {
    reply: (buttons.length ? { text, buttons } : { text }) as AgentReply,
    options: buttons.map((button) => button.id),
  };
}

function vehicleLabel(vehicle: VehicleDetails): string {
  return [vehicle.make, vehicle.model, vehicle.year].filter(Boolean).join(" ") +
    (vehicle.plate ? ` (${vehicle.plate})` : "");
}

/** What staff need to take over: the card's fields, the photo, the cover and the quote. */
function staffSummary(memory: InsuranceMemory, extra: string, currency?: string): string {
  const vehicle = memory.vehicle ?? {};
  const money = (amount: number) => formatMoney(amount, "en", { currency });
  const lines = [
    extra,
    `Vehicle: plate ${vehicle.plate ?? "?"}, ${vehicle.make ?? "?"} ${vehicle.model ?? "?"}, ` +
    `year ${vehicle.year ?? "?"}, owner ${vehicle.owner ?? "?"}${
      vehicle.vin ? `, VIN ${vehicle.vin}` : ""
    }${vehicle.usage ? `, use on the card: ${vehicle.usage}` : ""}`,
    memory.extractionId ? `Extraction: ${memory.extractionId}` : "",
    memory.imageRef ? `Photo: ${memory.imageRef}` : "",
    memory.usage ? `Use: ${memory.usage}` : "",
    memory.cover
      ? `Cover: ${memory.cover}${memory.value ? `, value ${money(memory.value)}` : ""}`
      : "",
    memory.days ? `Period: ${memory.days} days` : "",
    memory.chosen
      ? `Quote: ${memory.chosen.id} ${memory.chosen.insurer} ${money(memory.chosen.premium)}`
      : "",
  ];
  return lines.filter(Boolean).join("\n").slice(0, 2000);
}

/** Raises an inbox ticket with the data attached, then says `then`; says so if staff cannot be reached. */
async function toStaff(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  memory: InsuranceMemory,
  options: { reason: string; summary: string; then: string },
): Promise<OfflineStep> {
  const lang = turn.language;
  const result = await callTool("notify_staff", {
    channel: "inbox",
    payload: {
      reason: options.reason,
      summary: staffSummary(memory, options.summary, turn.currency),
      priority: "high",
    },
  }, "notify_staff");
  if (!result.ok) {
    return { replies: [{ text: say("staffFailed", lang, { msg: result.error.msg }) }] };
  }
  return { replies: [{ text: options.then }], memory: { ...CLEAR }, done: true };
}

function showFields(lang: Language, memory: InsuranceMemory): OfflineStep {
  const vehicle = memory.vehicle ?? {};
  const unknown = say("unknown", lang);
  const doubtful = (memory.doubtful ?? []).map((field) => FIELD_NAMES[lang][field]).filter(
    Boolean,
  );
  const text = say("fields", lang, {
    plate: vehicle.plate ?? unknown,
    make: vehicle.make ?? unknown,
    model: vehicle.model ?? unknown,
    year: vehicle.year ?? unknown,
    owner: vehicle.owner ?? unknown,
    usage: vehicle.usage ? say(USAGE_TEXT[vehicle.usage], lang) : unknown,
  }) + (doubtful.length ? `\n${say("doubtful", lang, { fields: doubtful.join(", ") })}` : "");
  const { reply, options } = ask(text, [
    { id: "ins:ok", title: say("confirmYes", lang) },
    { id: "ins:fix", title: say("fix", lang) },
  ]);
  return { replies: [reply], memory: { ...memory, step: "confirm", options } };
}

const FIELD_OF: Record<string, keyof VehicleDetails> = {
  plate: "plate",
  make: "make",
  model: "model",
  year: "year",
  owner_name: "owner",
  usage: "usage",
};

async function readCard(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  memory: InsuranceMemory,
  ref: string,
): Promise<OfflineStep> {
  const lang = turn.language;
  // Reading takes seconds: say so first.
  await turn.progress(say("reading", lang));
  const result = await callTyped(callTool, ocrExtract, {
    file_url: ref,
    document_type: "vehicle_registration",
  }, "ocr_extract");
  const withPhoto = { ...memory, imageRef: ref };
  if (!result.ok) {
    const refusal = ocrRefusal(result.error);
    if (refusal === "damaged_file" || refusal === "not_an_image") {
      // The file came through empty, cut off or as no picture: nothing was read, so it is no
      // try of the card (staff could not read it either), and the customer sends it again.
      return {
        replies: [{ text: say("photoNotReceived", lang) }],
        memory: { ...withPhoto, step: "photo" },
      };
    }
    if (result.error.code === "VALIDATION_ERROR" && refusal !== "wrong_document_type") {
      // A card too blurred to read and a photo we cannot tell from a card count alike:
      // after the second, a person reads it rather than the customer trying forever.
      const tries = (memory.tries ?? 0) + 1;
      if (tries >= 2) {
        return await toStaff(turn, callTool, withPhoto, {
          reason: "Insurance: vehicle registration unreadable after two photos",
          summary: `The customer sent ${tries} photos of their carte jaune; none could be read. ` +
            "Read the photo (kept in Storage) and quote them.",
          then: say("unreadableTwice", lang),
        });
      }
      return {
        replies: [{
          text: say(refusal === "unreadable" ? "blurred" : "notADocument", lang),
        }],
        memory: { ...withPhoto, step: "photo", tries },
      };
    }
    if (result.error.code === "VALIDATION_ERROR") {
      return {
        replies: [{ text: say("wrongDocument", lang) }],
        memory: { ...withPhoto, step: "photo" },
      };
    }
    return {
      replies: [{
        text: say("priceFailed", lang, { msg: result.error.msg }),
        ...(turn.handoff
          ? { buttons: [{ id: `agent:${turn.handoff}`, title: say("person", lang) }] }
          : {}),
      }],
      memory: { ...withPhoto, step: "photo" },
    };
  }
  const data = result.data;
  const vehicle: VehicleDetails = {};
  for (const [name, field] of Object.entries(FIELD_OF)) {
    const value = data.fields[name]?.trim();
    if (!value) continue;
    if (field === "year") {
      const year = Number(value);
      if (Number.isInteger(year)) vehicle.year = year;
    } else if (field === "plate") {
      vehicle.plate = normalizePlate(value) ?? value;
    } else if (field === "usage") {
      const usage = usageOf(value);
      if (usage) vehicle.usage = usage;
    } else {
      vehicle[field] = value;
    }
  }
  if (data.fields.vin) vehicle.vin = data.fields.vin;
  // A use the card does not state is asked after the confirmation, not flagged as doubtful.
  const doubtful = [...Object.keys(data.notes), ...data.missing.filter((name) => name !== "usage")]
    .map((name) => FIELD_OF[name])
    .filter((field): field is keyof VehicleDetails => Boolean(field));
  return showFields(lang, {
    ...withPhoto,
    extractionId: data.extraction_id,
    vehicle,
    doubtful: [...new Set(doubtful)],
  });
}

function askUsage(lang: Language, memory: InsuranceMemory): OfflineStep {
  const { reply, options } = ask(say("askUsage", lang), [
    { id: "use:private", title: say("private", lang) },
    { id: "use:commercial", title: say("commercial", lang) },
  ]);
  return { replies: [reply], memory: { ...memory, step: "usage", options } };
}

/**
 * Goes on once the use is known (read from the card and confirmed, or
 * chosen): private use is priced; commercial use (taxi, moto taxi, hire) is
 * underwritten by staff, with the use the card states in the summary.
 */
async function withUsage(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  memory: InsuranceMemory,
  usage: "private" | "commercial",
): Promise<OfflineStep> {
  if (usage === "commercial") {
    const read = memory.vehicle?.usage;
    return await toStaff(turn, callTool, { ...memory, usage }, {
      reason: "Insurance: commercial vehicle to price",
      summary: "Commercial use (taxi, moto taxi or hire) is underwritten by staff." +
        (read ? ` The card states: ${read}.` : ""),
      then: say("commercialToStaff", turn.language),
    });
  }
  return askCover(turn.language, { ...memory, usage });
}

function askCover(lang: Language, memory: InsuranceMemory): OfflineStep {
  const { reply, options } = ask(say("askCover", lang), [
    { id: "cov:third_party", title: say("thirdParty", lang) },
    { id: "cov:comprehensive", title: say("comprehensive", lang) },
  ]);
  return { replies: [reply], memory: { ...memory, step: "cover", options } };
}

function askPeriod(lang: Language, memory: InsuranceMemory): OfflineStep {
  const { reply, options } = ask(say("askPeriod", lang), [
    { id: "per:90", title: say("months3", lang) },
    { id: "per:180", title: say("months6", lang) },
    { id: "per:365", title: say("months12", lang) },
  ]);
  return { replies: [reply], memory: { ...memory, step: "period", options } };
}

/** A value in RWF as typed: "8000000", "8,000,000", "8 000 000 RWF", "8m". */
export function parseRwf(text: string): number | null {
  const compact = text.toLowerCase().replace(/rwf|frw|francs?|amafaranga/g, "").replace(
    /[\s,.']/g,
    "",
  );
  const millions = /^([0-9]{1,4})(m|million|millions|miliyoni)$/.exec(compact);
  const value = millions
    ? Number(millions[1]) * 1_000_000
    : /^[0-9]{1,10}$/.test(compact)
    ? Number(compact)
    : NaN;
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

function periodLabel(lang: Language, days: number): string {
  return days >= 365
    ? say("months12", lang)
    : days >= 180
    ? say("months6", lang)
    : say("months3", lang);
}

async function price(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  memory: InsuranceMemory,
): Promise<OfflineStep> {
  const lang = turn.language;
  const money = { currency: turn.currency };
  const vehicle = memory.vehicle ?? {};
  const result = await callTyped(callTool, priceInsurance, {
    type: "motor",
    category: (vehicle.make && MOTO_MAKES.test(vehicle.make)) || isMotorcyclePlate(vehicle.plate) ||
        vehicle.usage === "taxi-moto"
      ? "moto"
      : "car",
    coverage_period_days: memory.days,
    usage: memory.usage ?? "private",
    cover: memory.cover ?? "third_party",
    ...(memory.cover === "comprehensive" ? { declared_value: memory.value } : {}),
    vehicle: {
      make: vehicle.make,
      model: vehicle.model,
      year: vehicle.year,
      ...(vehicle.plate ? { plate: vehicle.plate } : {}),
    },
  }, "price_insurance");
  if (!result.ok) {
    const vehicleIssue = result.error.fields?.find((field) => field.path.startsWith("vehicle"));
    if (result.error.code === "VALIDATION_ERROR" && vehicleIssue) {
      // Every insurer's tariff refuses the vehicle itself: a person may still find cover.
      return await toStaff(turn, callTool, memory, {
        reason: "Insurance: vehicle outside every tariff",
        summary: `No tariff covers it: ${result.error.msg}`,
        then: say("tooOld", lang, { reason: vehicleIssue.message }),
      });
    }
    return {
      replies: [{ text: say("priceFailed", lang, { msg: result.error.msg }) }],
      memory: { ...memory, step: memory.cover === "comprehensive" ? "value" : "period" },
    };
  }
  const data = result.data;
  const quotes: KeptQuote[] = data.quotes.slice(0, 9).map((quote) => ({
    id: quote.quote_id,
    insurer: quote.insurer,
    premium: quote.premium,
    base: quote.breakdown.base,
    tax: quote.breakdown.tax,
    fees: quote.breakdown.fees,
    feeText: quote.fee_items.map((item) => `${item.label[lang]} ${formatNumber(item.amount, lang)}`)
      .join(
        " + ",
      ),
  }));
  const lines = quotes.map((quote, index) =>
    say("quoteLine", lang, {
      n: index + 1,
      insurer: quote.insurer,
      premium: formatMoney(quote.premium, lang, money),
      base: formatNumber(quote.base, lang),
      fees: quote.feeText || formatNumber(quote.fees, lang),
      tax: formatNumber(quote.tax, lang),
    })
  );
  if (data.declined.length) {
    lines.push(say("declined", lang, {
      insurers: data.declined.map((entry) => entry.insurer).join(", "),
      reasons: [...new Set(data.declined.map((entry) => entry.reason))].join("; "),
    }));
  }
  const text = say("quotes", lang, {
    cover: say(memory.cover === "comprehensive" ? "comprehensive" : "thirdParty", lang),
    period: periodLabel(lang, memory.days ?? 365),
    vehicle: vehicleLabel(vehicle),
    lines: lines.join("\n"),
  });
  const rows = quotes.map((quote, index) => ({
    id: `quote:${index + 1}`,
    title: shortenTitle(quote.insurer, TITLE_LIMITS.row),
    description: formatMoney(quote.premium, lang, money),
  }));
  return {
    replies: [{ text, rows }],
    memory: { ...memory, step: "pick", quotes, options: rows.map((row) => row.id) },
  };
}

/** How the charge went (straight away, or once the customer confirmed it). */
function charged(
  reader: Pick<OfflineTurn, "language" | "currency">,
  memory: InsuranceMemory,
  result: ToolResult<z.output<typeof momoCharge.output>>,
): OfflineStep {
  const lang = reader.language;
  if (!result.ok) {
    if (result.error.code === "CANCELLED") {
      return {
        replies: [{ text: say("payCancelled", lang) }],
        memory: { ...memory, step: "pick", chosen: null, lastResult: null },
      };
    }
    return {
      replies: [{ text: say("payFailed", lang, { msg: result.error.msg }) }],
      memory: { ...memory, step: "pick", lastResult: null },
    };
  }
  const charge = result.data;
  return {
    replies: [{
      text: say("payLink", lang, {
        insurer: memory.chosen?.insurer ?? "",
        premium: formatMoney(charge.amount, lang, { currency: reader.currency }),
        payee: charge.payee,
        code: charge.ussd_code,
        link: charge.payment_link,
        ref: charge.momo_ref,
      }),
    }],
    memory: {
      ...memory,
      step: "paying",
      momoRef: charge.momo_ref,
      ussd: charge.ussd_code,
      payee: charge.payee,
      lastResult: null,
      options: [],
    },
  };
}

async function pay(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  memory: InsuranceMemory,
  quote: KeptQuote,
): Promise<OfflineStep> {
  const lang = turn.language;
  const chosen = { ...memory, chosen: quote };
  const payee = insurancePayee();
  if (!payee) {
    return await toStaff(turn, callTool, chosen, {
      reason: "Insurance: take the premium (no MoMo payee configured)",
      summary: "The customer chose a quote; INSURANCE_MOMO_PAYEE is not set, so take the payment " +
        "and issue the certificate by hand.",
      then: say("noPayee", lang),
    });
  }
  const vehicle = memory.vehicle ?? {};
  const step = await callWithConfirmation(turn, callTool, {
    tool: "momo_charge",
    args: {
      amount: quote.premium,
      currency: "RWF",
      ...(turn.input.phone && /^\+2507[0-9]{8}$/.test(turn.input.phone)
        ? { phone: turn.input.phone }
        : {}),
      memo: `Motor insurance ${vehicle.plate ?? ""} - ${quote.insurer}`.slice(0, 140),
      // One charge per quote: a repeated pick returns the same charge.
      idempotency_key: `insurance:${quote.id}`,
      payee_phone: payee,
      payee_name: insurancePayeeName(),
      language: lang,
      metadata: {
        purpose: "insurance_certificate",
        quote_id: quote.id,
        ...(memory.extractionId ? { extraction_id: memory.extractionId } : {}),
        insured_name: (vehicle.owner ?? "").slice(0, 120),
        vehicle: {
          plate: vehicle.plate ?? "",
          make: vehicle.make ?? "",
          model: vehicle.model ?? "",
          year: vehicle.year ?? 0,
          ...(vehicle.vin ? { vin: vehicle.vin } : {}),
        },
      },
    },
    step: "momo_charge",
  });
  if (step.pending) return { ...step, memory: { ...chosen, step: "pick" } };
  return charged(turn, chosen, readResult(momoCharge, step.memory?.lastResult));
}

/** The charge's live state, as `payment_status` reads it (null when it cannot be read). */
type LiveCharge = z.output<typeof paymentStatus.output>["payments"][number];

/**
 * Whether the charge the flow is paying is still waiting. The memory only
 * says a code was given; the payment may have settled (the certificate went
 * out), expired or been cancelled since, and a code shown then would invite
 * paying twice. A charge that cannot be read is not shown as waiting either.
 */
async function liveCharge(
  callTool: OfflineToolCaller,
  momoRef: string,
): Promise<LiveCharge | null> {
  const result = await callTyped(callTool, paymentStatus, { momo_ref: momoRef }, "live_charge");
  if (!result.ok) return null;
  const [payment] = result.data.payments;
  return payment ?? null;
}

const CLOSED_STATUS = {
  settled: "statusSettled",
  expired: "statusExpired",
  failed: "statusFailed",
} as const;

/** The option a tapped id or a typed number names. */
function choiceOf(turn: OfflineTurn, memory: InsuranceMemory): string | undefined {
  const text = turn.input.text?.trim() ?? "";
  const typed = /^[1-9]$/.test(text) ? memory.options?.[Number(text) - 1] : undefined;
  return turn.input.choice ?? typed;
}

// One offline step of the Insurance agent, its memory read by its schema.
async function insuranceStep(
  turn: TypedTurn<InsuranceMemory>,
  callTool: OfflineToolCaller,
): Promise<OfflineStep> {
  const lang = turn.language;
  let fresh = turn.input.choice?.startsWith("agent:") ?? false;
  let memory: InsuranceMemory = fresh ? { ...CLEAR } : { ...CLEAR, ...turn.memory };
  // Paying is only shown while the charge still waits: a settled, expired or cancelled one
  // finished this request, and the message starts a new one (said in front of its first step).
  let closed = "";
  let live: LiveCharge | null = null;
  // Back after leaving with the premium's charge kept (the kernel asked "cancel or keep?"): the
  // request resumes at its payment while the charge still waits, so it is not asked twice.
  const kept = turn.memory;
  if (memory.step !== "paying" && kept.momoRef && kept.ussd && !turn.input.media) {
    const waiting = await liveCharge(callTool, kept.momoRef);
    if (waiting?.status === "pending") {
      memory = {
        ...CLEAR,
        chosen: kept.chosen ?? null,
        vehicle: kept.vehicle ?? null,
        momoRef: kept.momoRef,
        ussd: kept.ussd,
        payee: kept.payee ?? null,
        step: "paying",
      };
      live = waiting;
      fresh = false;
    }
  }
  if (memory.step === "paying" && memory.momoRef) {
    live ??= await liveCharge(callTool, memory.momoRef);
    if (live?.status !== "pending") {
      closed = live
        ? say("chargeClosed", lang, {
          ref: memory.momoRef,
          status: say(CLOSED_STATUS[live.status], lang),
        })
        : "";
      fresh = true;
      memory = { ...CLEAR };
    }
  }
  const text = turn.input.text?.trim() ?? "";
  const choice = fresh ? undefined : choiceOf(turn, memory);
  const media = turn.input.media;

  // Back from confirming the MoMo charge.
  const confirmed = readKeptResult(momoCharge, turn.memory.lastResult);
  if (confirmed && memory.chosen && memory.step === "pick") {
    return charged(turn, memory, confirmed);
  }

  // A photo at any step before paying is a (new) card to read.
  if (media && memory.step !== "paying") {
    if (media.type !== "image" || !media.ref) {
      return {
        replies: [{ text: closed + say("notAPhoto", lang) }],
        memory: { ...memory, step: "photo" },
      };
    }
    return await readCard(turn, callTool, memory, media.ref);
  }

  switch (memory.step ?? null) {
    case "confirm": {
      if (choice === "ins:fix") return { replies: [{ text: say("fixHow", lang) }] };
      const now = turn.now ?? new Date();
      const corrections = parseCorrections(text, { now });
      if (corrections && "error" in corrections) {
        return {
          replies: [{ text: say(corrections.error, lang, { max: maxYear(now) }) }],
        };
      }
      if (corrections) {
        const vehicle = { ...memory.vehicle, ...corrections.changes };
        const doubtful = (memory.doubtful ?? []).filter((field) => !(field in corrections.changes));
        return showFields(lang, { ...memory, vehicle, doubtful });
      }
      if (choice === "ins:ok" || YES.test(text)) {
        const missing = REQUIRED.filter((field) => !memory.vehicle?.[field]);
        if (missing.length) {
          return {
            replies: [{
              text: say("missing", lang, {
                fields: missing.map((field) => FIELD_NAMES[lang][field]).join(", "),
              }),
            }],
          };
        }
        // The card said how the vehicle is used and the customer confirmed it: not asked again.
        const read = memory.vehicle?.usage;
        if (read) {
          return await withUsage(
            turn,
            callTool,
            memory,
            read === "private" ? "private" : "commercial",
          );
        }
        return askUsage(lang, memory);
      }
      return showFields(lang, memory);
    }
    case "usage": {
      const usage = choice === "use:private"
        ? "private"
        : choice === "use:commercial"
        ? "commercial"
        : /taxi|commerc|ubucuruzi|hire|location|transport/i.test(text)
        ? "commercial"
        : /priv|bwite|giti|personal|personnel/i.test(text)
        ? "private"
        : null;
      if (!usage) return askUsage(lang, memory);
      return await withUsage(turn, callTool, memory, usage);
    }
    case "cover": {
      const cover = choice === "cov:third_party"
        ? "third_party"
        : choice === "cov:comprehensive"
        ? "comprehensive"
        : /third|tiers|abandi/i.test(text)
        ? "third_party"
        : /compre|tous risques|bwuzuye/i.test(text)
        ? "comprehensive"
        : null;
      if (!cover) return askCover(lang, memory);
      if (cover === "comprehensive") {
        return {
          replies: [{ text: say("askValue", lang) }],
          memory: { ...memory, cover, step: "value", options: [] },
        };
      }
      return askPeriod(lang, { ...memory, cover, value: null });
    }
    case "value": {
      const value = parseRwf(text);
      if (!value) return { replies: [{ text: say("badValue", lang) }] };
      return askPeriod(lang, { ...memory, value });
    }
    case "period": {
      const days = choice?.startsWith("per:")
        ? Number(choice.slice(4))
        : /\b(12|1 ?(year|an|umwaka))\b|year|umwaka|\ban\b/i.test(text)
        ? 365
        : /\b6\b/.test(text)
        ? 180
        : /\b3\b/.test(text)
        ? 90
        : null;
      if (!days) return askPeriod(lang, memory);
      return await price(turn, callTool, { ...memory, days });
    }
    case "pick": {
      const index = choice?.startsWith("quote:") ? Number(choice.slice(6)) - 1 : -1;
      const quote = memory.quotes?.[index];
      if (!quote) {
        return {
          replies: [{ text: say("pickQuote", lang, { n: memory.quotes?.length ?? 0 }) }],
        };
      }
      return await pay(turn, callTool, memory, quote);
    }
    case "paying":
      return {
        replies: [{
          text: say("waitingPayment", lang, {
            ref: memory.momoRef ?? "",
            premium: formatMoney(live?.amount ?? memory.chosen?.premium ?? 0, lang, {
              currency: turn.currency,
            }),
            payee: memory.payee ?? live?.payee ?? insurancePayeeName(),
            code: memory.ussd ?? "",
          }),
        }],
      };
    case "photo":
      return { replies: [{ text: say("notAPhoto", lang) }] };
    default:
      return {
        replies: [{ text: closed + say("askPhoto", lang) }],
        memory: { ...CLEAR, step: "photo" },
      };
  }
}

const insurance = typedFlow({ version: 1, memory: insuranceMemory, step: insuranceStep });

/** One offline step of the Insurance agent. */
export const insuranceFlow: OfflineFlow = insurance.offlineFlow;

/** What the Insurance agent's flow keeps between turns, typed and versioned. */
export const insuranceFlowMemory: FlowMemory = insurance.memory;
