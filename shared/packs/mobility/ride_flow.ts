/**
 * The Mobility Orchestrator offline: moto or cab → pickup (a shared location
 * or a known place) → destination → price window (`trip_price_estimate`) →
 * confirm → the nearest drivers are asked (`ride_request`) → matched (the
 * driver's name, vehicle, plate, contact, sent when a driver accepts) → pay
 * the driver with MoMo (`momo_charge` with the ride) or cash → paid.
 * "menu"/"0" leaves from anywhere (the router); a typed number picks an
 * option of the last question.
 *
 * @module
 */
import { formatMoney } from "@shared/capabilities/format/mod.ts";
import { vehicleText } from "./vehicle_text.ts";
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
import { waitingCharge } from "@shared/capabilities/waiting_charge/mod.ts";
import { type Language, typedAnswer } from "@shared/contract/language.ts";
import { asksHowToPay } from "@shared/contract/payment_question.ts";
import type {
  AgentReply,
  OfflineFlow,
  OfflineStep,
  OfflineToolCaller,
  OfflineTurn,
  PendingWork,
} from "@shared/registry/pack.ts";
import { openWorkToMove } from "@shared/registry/pack.ts";
import type { NamedPoint } from "./places.ts";
import { normalizePlaceText, placeLookup, samePlace } from "./places.ts";
import { rideRequest, rideStatus as rideStatusTool } from "./rides.ts";
import { tripPriceEstimate } from "./trip_estimate.ts";
import { parseTripText } from "./trip_text.ts";
import { say } from "./texts.ts";

const VEHICLES = ["moto", "cab"] as const;
type Vehicle = typeof VEHICLES[number];
const STEPS = [
  "vehicle",
  "pickup",
  "dest",
  "which",
  "confirm",
  "waiting",
  "matched",
  "paying",
] as const;
type End = "pickup" | "dest";

const namedPoint = z.object({ lat: z.number(), lng: z.number(), name: z.string().optional() });

/**
 * What the ride flow keeps between turns (version 1). A change that older
 * conversations cannot be read as bumps the version in {@link rideFlowMemory}.
 */
const rideMemory = z.object({
  step: z.enum(STEPS).nullish(),
  vehicle: z.enum(VEHICLES).nullish(),
  pickup: namedPoint.nullish(),
  dest: namedPoint.nullish(),
  rideId: z.string().nullish(),
  radius: z.number().nullish(),
  momoRef: z.string().nullish(),
  driverName: z.string().nullish(),
  options: z.array(z.string()).optional(),
  ...keptCallMemory,
});

type RideMemory = z.output<typeof rideMemory>;

// Memory is merged between turns: a new ride clears what the last one kept.
const CLEAR: RideMemory = {
  vehicle: null,
  pickup: null,
  dest: null,
  rideId: null,
  momoRef: null,
  driverName: null,
  options: [],
};

const MOTO_WORDS = /\b(moto|motari|motard|motorbike|moto taxi|boda|igare)\b/;
const CAB_WORDS = /\b(cab|taxi|car|voiture|imodoka|vehicule)\b/;

function vehicleIn(text: string): Vehicle | undefined {
  const words = normalizePlaceText(text);
  if (MOTO_WORDS.test(words)) return "moto";
  if (CAB_WORDS.test(words)) return "cab";
  return undefined;
}

/** A reply whose options are remembered, so a typed number picks one. */
function ask(text: string, buttons: AgentReply["buttons"] = []): {
  reply: AgentReply;
  options: string[];
} {
  return {
    reply: buttons.length ? { text, buttons } : { text },
    options: buttons.map((b) => b.id),
  };
}

function failure(result: ToolResult): string {
  return result.ok ? "" : result.error.msg;
}

function nextQuestion(memory: RideMemory, lang: Language) {
  if (!memory.vehicle) {
    return {
      step: "vehicle" as const,
      ...ask(say("askVehicle", lang), [
        { id: "veh:moto", title: say("moto", lang) },
        { id: "veh:cab", title: say("cab", lang) },
      ]),
    };
  }
  if (!memory.pickup) return { step: "pickup" as const, ...ask(say("askPickup", lang)) };
  if (!memory.dest) return { step: "dest" as const, ...ask(say("askDest", lang)) };
  return null;
}

async function lookupPlace(
  callTool: OfflineToolCaller,
  text: string,
  step: string,
): Promise<NamedPoint | null> {
  const result = await callTyped(callTool, placeLookup, { text: text.slice(0, 200) }, step);
  if (!result.ok) return null;
  const data = result.data;
  return data.found && data.place
    ? { lat: data.place.lat, lng: data.place.lng, name: data.place.name }
    : null;
}

/** What {@link takePlaces} found: the first end whose words name no known place. */
interface Taken {
  /** Whether the text named an end at all. */
  named: boolean;
  /** An end the rider named with words the gazetteer does not know. */
  unknown?: { end: End; words: string };
}

/**
 * Sets the ends the text names (a correction replaces the end it names);
 * a text naming no end sets `bareEnd`, when given.
 */
async function takePlaces(
  callTool: OfflineToolCaller,
  memory: RideMemory,
  text: string,
  bareEnd: End | null,
): Promise<Taken> {
  const parsed = parseTripText(text);
  const ends: Array<[End, string]> = [];
  if (parsed.from) ends.push(["pickup", parsed.from]);
  if (parsed.to) ends.push(["dest", parsed.to]);
  if (parsed.bare && bareEnd) ends.push([bareEnd, parsed.bare]);
  const taken: Taken = { named: ends.length > 0 };
  for (const [end, words] of ends) {
    const place = await lookupPlace(callTool, words, end);
    memory[end] = place;
    if (!place) taken.unknown ??= { end, words };
  }
  // "Kacyiru to Kabeza": words before the destination are the pickup when they name a place.
  if (parsed.lead) {
    const place = await lookupPlace(callTool, parsed.lead, "lead");
    if (place) {
      memory.pickup = place;
      taken.named = true;
    }
  }
  return taken;
}

/** Asks which end is wrong when both name one place. */
function askWhich(memory: RideMemory, lang: Language): OfflineStep {
  const { reply, options } = ask(
    say("samePlace", lang, { place: memory.dest?.name ?? memory.pickup?.name ?? "📍" }),
    [
      { id: "end:pickup", title: say("endPickup", lang) },
      { id: "end:dest", title: say("endDest", lang) },
    ],
  );
  return { replies: [reply], memory: { ...memory, step: "which", options } };
}

async function quote(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  memory: RideMemory,
): Promise<OfflineStep> {
  const lang = turn.language;
  const money = { currency: turn.currency };
  const result = await callTyped(callTool, tripPriceEstimate, {
    origin: memory.pickup,
    dest: memory.dest,
    pax: 1,
    vehicle_type: memory.vehicle,
  }, "quote");
  if (!result.ok) {
    return { replies: [{ text: say("failed", lang, { msg: failure(result) }) }] };
  }
  const fare = result.data;
  const { reply, options } = ask(
    say("quote", lang, {
      vehicle: say(memory.vehicle === "cab" ? "cab" : "moto", lang),
      from: memory.pickup?.name ?? fare.origin.name ?? "📍",
      to: memory.dest?.name ?? fare.dest.name ?? "📍",
      estimate: formatMoney(fare.estimate, lang, money),
      min: formatMoney(fare.window.min, lang, money),
      max: formatMoney(fare.window.max, lang, money),
      eta: fare.eta_minutes,
    }),
    [
      { id: "trip:confirm", title: say("yesAsk", lang) },
      { id: "trip:cancel", title: say("cancel", lang) },
    ],
  );
  return { replies: [reply], memory: { ...memory, step: "confirm", options } };
}

function noDriverOptions(lang: Language, text: string) {
  return ask(text, [
    { id: "trip:retry", title: say("retry", lang) },
    { id: "trip:wider", title: say("wider", lang) },
    { id: "trip:cab", title: say("takeCab", lang) },
  ]);
}

async function requestRide(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  memory: RideMemory,
): Promise<OfflineStep> {
  const lang = turn.language;
  const result = await callTyped(callTool, rideRequest, {
    vehicle_type: memory.vehicle,
    pickup: memory.pickup,
    dest: memory.dest,
    radius_m: memory.radius ?? 5000,
    language: lang,
  }, "ride_request");
  if (!result.ok) {
    const text = result.error.code === "NOT_FOUND"
      ? say("noDrivers", lang, { vehicle: say(memory.vehicle === "cab" ? "cab" : "moto", lang) })
      : say("failed", lang, { msg: failure(result) });
    const { reply, options } = noDriverOptions(lang, text);
    return { replies: [reply], memory: { ...memory, step: "confirm", options } };
  }
  const data = result.data;
  const minutes = Math.max(1, Math.round((Date.parse(data.expires_at) - Date.now()) / 60_000));
  return {
    replies: [{ text: say("asked", lang, { n: data.drivers_asked, minutes }) }],
    memory: { ...memory, step: "waiting", rideId: data.ride_request_id, options: [] },
  };
}

type RideStatus = z.output<typeof rideStatusTool.output>;

// What the trip costs, asked in words ("how much?", « c'est combien ? », "ni angahe?").
const FARE_QUESTION =
  /\b(?:how much|price|cost|costs|fare|combien|prix|tarif|co[uû]te|angahe|igiciro|ikiguzi)\b/i;

/** Whether the words ask what the trip costs. */
export function asksFare(text: string): boolean {
  return FARE_QUESTION.test(text);
}

async function rideStatus(
  callTool: OfflineToolCaller,
  rideId: string,
): Promise<RideStatus | null> {
  const result = await callTyped(
    callTool,
    rideStatusTool,
    { ride_request_id: rideId },
    "ride_status",
  );
  return result.ok ? result.data : null;
}

// The payments pack's `momo_charge`, as this flow reads it: the fields it uses of its output,
// parsed on reading (a pack does not import another pack's definitions).
const momoCharge = {
  name: "momo_charge",
  output: z.object({
    payment_link: z.string(),
    ussd_code: z.string(),
    momo_ref: z.string(),
    amount: z.number(),
  }),
};

/** Whom a reply speaks to: their language, and the tenant's currency its amounts are in. */
type Reader = Pick<OfflineTurn, "language" | "currency">;

/** How the charge went (straight away, or once the user confirmed it). */
function charged(
  reader: Reader,
  memory: RideMemory,
  result: ToolResult<z.output<typeof momoCharge.output>>,
): OfflineStep {
  const lang = reader.language;
  // Pay tapped again while a charge for the ride waits: that charge is the answer.
  const waiting = waitingCharge(result);
  if (waiting) {
    return chargeLink(reader, memory, {
      ...waiting,
      ussd_code: waiting.ussd_code ?? decodeURIComponent(waiting.payment_link.replace(/^tel:/, "")),
      amount: waiting.amount ?? 0,
    });
  }
  if (!result.ok) {
    if (result.error.code === "CANCELLED") {
      const { reply, options } = ask(say("cancelled", lang), [
        { id: "trip:pay", title: say("payMomo", lang) },
        { id: "trip:cash", title: say("payCash", lang) },
      ]);
      return {
        replies: [reply],
        memory: { ...memory, step: "matched", options, lastResult: null },
      };
    }
    return {
      replies: [{ text: say("payUnavailable", lang, { reason: result.error.msg }) }],
      memory: { ...memory, step: null, lastResult: null },
      done: true,
    };
  }
  return chargeLink(reader, memory, result.data);
}

/** The charge's code and link, to pay the driver with. */
function chargeLink(
  reader: Reader,
  memory: RideMemory,
  charge: z.output<typeof momoCharge.output>,
): OfflineStep {
  return {
    replies: [{
      text: say("payLink", reader.language, {
        amount: formatMoney(charge.amount, reader.language, { currency: reader.currency }),
        driver: memory.driverName ?? "",
        link: charge.payment_link,
        code: charge.ussd_code,
        ref: charge.momo_ref,
      }),
    }],
    memory: { ...memory, step: "paying", momoRef: charge.momo_ref, lastResult: null, options: [] },
  };
}

async function pay(
  turn: OfflineTurn,
  callTool: OfflineToolCaller,
  memory: RideMemory,
): Promise<OfflineStep> {
  const lang = turn.language;
  const ride = await rideStatus(callTool, memory.rideId!);
  if (!ride?.driver || !ride.estimate || !ride.rider_phone) {
    return { replies: [{ text: say("waiting", lang) }] };
  }
  const withDriver = { ...memory, driverName: ride.driver.name };
  // momo_charge asks the user to confirm first: the graph shows the read-back, and the
  // confirmed result comes back as lastResult on the next turn.
  const step = await callWithConfirmation(turn, callTool, {
    tool: "momo_charge",
    args: {
      amount: ride.estimate,
      currency: "RWF",
      phone: ride.rider_phone,
      memo: `Ride ${ride.pickup_name ?? ""} - ${ride.dest_name ?? ""}`.slice(0, 140),
      idempotency_key: `ride:${memory.rideId}:momo`,
      ride_request_id: memory.rideId,
      // The conversation's language, not the profile's: the receipt must speak it too.
      language: lang,
    },
    step: "momo_charge",
  });
  if (step.pending) return { ...step, memory: withDriver };
  return charged(turn, withDriver, readResult(momoCharge, step.memory?.lastResult));
}

// One offline step of the Mobility Orchestrator, its memory read by its schema.
async function rideStep(
  turn: TypedTurn<RideMemory>,
  callTool: OfflineToolCaller,
): Promise<OfflineStep> {
  const lang = turn.language;
  const memory: RideMemory = { ...turn.memory };
  const text = turn.input.text?.trim() ?? "";
  // A typed number picks an option of the last question.
  const typed = /^[1-9]$/.test(text) ? memory.options?.[Number(text) - 1] : undefined;
  // "Yes" / "yego" / "oui" typed to "Shall I ask the drivers?" is the tap it answers.
  const answered = memory.step === "confirm" && typedAnswer(text) !== null
    ? (typedAnswer(text) ? "trip:confirm" : "trip:cancel")
    : undefined;
  const choice = turn.input.choice?.startsWith("agent:")
    ? undefined
    : turn.input.choice ?? typed ?? answered;
  const fresh = turn.input.choice?.startsWith("agent:") ?? false;

  // "Move it" with the rider's request open (the kernel's pick): a request goes to drivers at
  // once and has no time to move; said so, with the request's cancel beside waiting on.
  const moving = openWorkToMove(turn.input);
  const open = moving !== null ? await rideStatus(callTool, moving) : null;
  if (moving !== null && open?.status === "open") {
    const { reply, options } = ask(
      say("noMove", lang, {
        vehicle: open.vehicle_type === "cab" ? "cab" : "moto",
        from: open.pickup_name ?? "📍",
        to: open.dest_name ?? "📍",
      }),
      [
        { id: "ride:cancel_open", title: say("cancelRequest", lang) },
        { id: "ride:keep", title: say("keepWaiting", lang) },
      ],
    );
    return { replies: [reply], memory: { ...memory, step: "waiting", rideId: moving, options } };
  }
  if (choice === "ride:cancel_open" && memory.rideId) {
    const result = await callTool("ride_cancel", { ride_request_id: memory.rideId }, "ride_cancel");
    return result.ok
      ? { replies: [{ text: say("rideCancelledRider", lang) }], memory: { step: null }, done: true }
      : { replies: [{ text: say("failed", lang, { msg: failure(result) }) }] };
  }

  // Back from confirming the MoMo charge.
  const confirmed = readKeptResult(momoCharge, turn.memory.lastResult);
  if (confirmed && memory.rideId) return charged(turn, memory, confirmed);

  // Buttons sent by the drivers' answers reach the flow whatever its step.
  if (choice === "trip:cancel") {
    return { replies: [{ text: say("cancelled", lang) }], memory: { step: null }, done: true };
  }
  if (choice === "trip:pay" && memory.rideId) return pay(turn, callTool, memory);
  if (choice === "trip:cash" && memory.rideId) {
    const ride = await rideStatus(callTool, memory.rideId);
    return {
      replies: [{ text: say("cash", lang, { driver: ride?.driver?.name ?? "" }) }],
      memory: { step: null },
      done: true,
    };
  }
  if (choice === "trip:retry" || choice === "trip:wider" || choice === "trip:cab") {
    if (choice === "trip:wider") memory.radius = Math.min(20_000, (memory.radius ?? 5000) * 2);
    if (choice === "trip:cab") {
      memory.vehicle = "cab";
      return quote(turn, callTool, memory);
    }
    if (memory.pickup && memory.dest && memory.vehicle) return requestRide(turn, callTool, memory);
  }

  let taken: Taken | undefined;
  switch (fresh ? null : memory.step ?? null) {
    case "vehicle": {
      const vehicle = choice === "veh:moto"
        ? "moto"
        : choice === "veh:cab"
        ? "cab"
        : vehicleIn(text);
      if (vehicle) memory.vehicle = vehicle;
      if (text && !choice) taken = await takePlaces(callTool, memory, text, null);
      break;
    }
    case "pickup":
    case "dest": {
      const which = memory.step === "pickup" ? "pickup" : "dest";
      if (turn.input.location) {
        memory[which] = { lat: turn.input.location.latitude, lng: turn.input.location.longitude };
      } else if (text) {
        taken = await takePlaces(callTool, memory, text, which);
      }
      break;
    }
    case "which": {
      // Both ends named one place: the rider says which is wrong, or names an end again.
      if (choice === "end:pickup" || choice === "end:dest") {
        memory[choice === "end:pickup" ? "pickup" : "dest"] = null;
      } else if (turn.input.location) {
        memory.pickup = { lat: turn.input.location.latitude, lng: turn.input.location.longitude };
      } else {
        taken = await takePlaces(callTool, memory, text, null);
        if (!taken.named) return askWhich(memory, lang);
      }
      break;
    }
    case "confirm":
      if (choice === "trip:confirm") return requestRide(turn, callTool, memory);
      // "Can I pay cash?", « je peux payer par MoMo ? » at the quote: answered, then the same
      // quote, its buttons still bound to the same trip.
      if (text && !choice && asksHowToPay(text)) {
        const again = await quote(turn, callTool, memory);
        return { ...again, replies: [{ text: say("payHow", lang) }, ...again.replies ?? []] };
      }
      // "Oya, njya i Nyabugogo": a correction replaces the end it names, then a new quote.
      if (text && !choice) taken = await takePlaces(callTool, memory, text, null);
      break;
    case "waiting":
    case "matched":
    case "paying": {
      const ride = memory.rideId ? await rideStatus(callTool, memory.rideId) : null;
      if (ride?.payment_status === "settled") {
        return {
          replies: [{ text: say("paid", lang, { driver: ride.driver?.name ?? "" }) }],
          memory: { step: null },
          done: true,
        };
      }
      if (memory.step === "paying") {
        if (ride?.payment_status === "failed" || ride?.payment_status === "expired") {
          const { reply, options } = ask(
            say("payFailed", lang, { reason: ride.payment_status }),
            [{ id: "trip:cash", title: say("payCash", lang) }],
          );
          return { replies: [reply], memory: { ...memory, step: "matched", options } };
        }
        return { replies: [{ text: say("payPending", lang, { ref: memory.momoRef ?? "" }) }] };
      }
      if (ride?.status === "matched" && ride.driver) {
        const { reply, options } = ask(
          say("matched", lang, {
            driver: ride.driver.name,
            vehicle: ride.driver.vehicle
              ? vehicleText(ride.driver.vehicle, lang)
              : ride.driver.vehicle_type,
            plate: ride.driver.plate,
            phone: ride.driver.phone,
            wa: ride.driver.phone.replace(/^\+/, ""),
            amount: formatMoney(ride.estimate ?? 0, lang, { currency: turn.currency }),
          }),
          [
            { id: "trip:pay", title: say("payMomo", lang) },
            { id: "trip:cash", title: say("payCash", lang) },
          ],
        );
        return { replies: [reply], memory: { ...memory, step: "matched", options } };
      }
      if (ride?.status === "expired" || ride?.status === "cancelled") {
        const { reply, options } = noDriverOptions(lang, say("nobodyAccepted", lang));
        return { replies: [reply], memory: { ...memory, step: "confirm", options } };
      }
      // A question while drivers are asked is answered from the request, never met with
      // "still waiting" alone: the fare quoted, how to pay.
      if (text && !choice && asksHowToPay(text)) {
        return { replies: [{ text: say("payHow", lang) }, { text: say("waiting", lang) }] };
      }
      if (text && !choice && ride?.estimate && asksFare(text)) {
        const amount = formatMoney(ride.estimate, lang, { currency: turn.currency });
        return { replies: [{ text: say("waitingFare", lang, { amount }) }] };
      }
      return { replies: [{ text: say("waiting", lang) }] };
    }
    default: {
      // A first message may already say the vehicle and where to ("moto to Remera").
      const start: RideMemory = { radius: memory.radius ?? null };
      const vehicle = choice === "veh:moto"
        ? "moto"
        : choice === "veh:cab"
        ? "cab"
        : vehicleIn(text);
      if (vehicle) start.vehicle = vehicle;
      if (turn.input.location) {
        start.pickup = { lat: turn.input.location.latitude, lng: turn.input.location.longitude };
      }
      Object.assign(memory, CLEAR, start);
      // A first message may name both ends ("from Kimironko to Nyabugogo"); a bare place is
      // where to.
      if (text && !fresh && !turn.input.location) {
        taken = await takePlaces(callTool, memory, text, "dest");
      }
    }
  }
  if (taken?.unknown) {
    const { end, words } = taken.unknown;
    return {
      replies: [{ text: say("unknownPlace", lang, { place: words }) }],
      memory: { ...memory, step: end, options: [] },
    };
  }
  // Never a quote from a place to itself: the rider says which end is wrong.
  if (memory.pickup && memory.dest && samePlace(memory.pickup, memory.dest)) {
    return askWhich(memory, lang);
  }
  const next = nextQuestion(memory, lang);
  if (next) {
    return { replies: [next.reply], memory: { ...memory, step: next.step, options: next.options } };
  }
  return quote(turn, callTool, memory);
}

const ride = typedFlow({ version: 1, memory: rideMemory, step: rideStep });

/** One offline step of the Mobility Orchestrator. */
export const rideFlow: OfflineFlow = ride.offlineFlow;

/** What the Mobility Orchestrator's flow keeps between turns, typed and versioned. */
export const rideFlowMemory: FlowMemory = ride.memory;

/**
 * A ride request still waiting for drivers is what a rider leaves open: on
 * leaving, the kernel asks whether to cancel it (the drivers asked are told)
 * or keep it. Found through `ride_status`, so a ride the model requested
 * counts as much as the flow's own.
 */
export const ridePending: PendingWork = {
  async find({ language }, callTool) {
    const result = await callTyped(callTool, rideStatusTool, {}, "ride_status");
    if (!result.ok) return null;
    const ride = result.data;
    if (ride.status !== "open") return null;
    return {
      id: ride.ride_request_id,
      summary: say("openRide", language, {
        vehicle: ride.vehicle_type === "cab" ? "cab" : "moto",
        from: ride.pickup_name ?? "📍",
        to: ride.dest_name ?? "📍",
      }),
    };
  },
  async cancel(work, { language }, callTool) {
    const result = await callTool("ride_cancel", { ride_request_id: work.id }, "ride_cancel");
    return result.ok
      ? say("rideCancelledRider", language)
      : say("failed", language, { msg: failure(result) });
  },
  // Paused, the ride is not open: the database refuses every driver's accept.
  async pause(work, _context, callTool) {
    await callTool("ride_hold", { ride_request_id: work.id, hold: true }, "ride_hold");
  },
  async resume(work, _context, callTool) {
    await callTool("ride_hold", { ride_request_id: work.id, hold: false }, "ride_resume");
  },
};
