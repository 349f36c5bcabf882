/**
 * Drivers as the mobility pack's counterparts. A message from a registered
 * driver's number is theirs when it is a ride offer's Accept/Decline button
 * (`ride:<offer_id>:accept`), a shared location (their position), or a word
 * for available or busy ("available", "ndahari", "disponible", "busy",
 * "occupé"…), or a typed accept/decline while one of their offers is open.
 * Anything else (a driver who also buys food) goes to the customer flow.
 *
 * @module
 */
import type { Queryable } from "@shared/db/types.ts";
import type { Counterpart, CounterpartMessage } from "@shared/registry/pack.ts";
import { normalizePlaceText } from "./places.ts";
import { LATE_ANSWER_MS } from "./driver_tools.ts";

const AVAILABLE = new Set([
  "available",
  "online",
  "free",
  "ndahari",
  "ndi hano",
  "ndaboneka",
  "disponible",
  "libre",
]);
const BUSY = new Set([
  "busy",
  "offline",
  "stop",
  "sindahari",
  "ndahuze",
  "nahuze",
  "occupe",
  "indisponible",
]);
const ACCEPT = new Set([
  "accept",
  "yes",
  "emera",
  "nemeye",
  "yego",
  "accepter",
  "oui",
  "j'accepte",
]);
const DECLINE = new Set(["decline", "no", "anga", "oya", "refuser", "non"]);

const OFFER_BUTTON = /^ride:([0-9a-f-]{36}):(accept|decline)$/;

/** What a driver's message asks for, or null when it is not a driver's command. */
export function driverCommand(message: Pick<CounterpartMessage, "text" | "choice" | "location">):
  | { kind: "offer"; offerId?: string; action: "accept" | "decline" }
  | { kind: "status"; status: "available" | "busy" }
  | null {
  const button = OFFER_BUTTON.exec(message.choice ?? "");
  if (button) {
    return { kind: "offer", offerId: button[1], action: button[2] as "accept" | "decline" };
  }
  if (message.choice === "driver:available") return { kind: "status", status: "available" };
  if (message.choice === "driver:busy") return { kind: "status", status: "busy" };
  if (message.location) return { kind: "status", status: "available" };
  const word = normalizePlaceText(message.text ?? "");
  if (AVAILABLE.has(word)) return { kind: "status", status: "available" };
  if (BUSY.has(word)) return { kind: "status", status: "busy" };
  if (ACCEPT.has(word)) return { kind: "offer", action: "accept" };
  if (DECLINE.has(word)) return { kind: "offer", action: "decline" };
  return null;
}

/** Whether a message is a registered driver's command (typed answers need an open offer). */
export async function isDriverCommand(
  db: Queryable,
  message: CounterpartMessage,
): Promise<boolean> {
  const command = driverCommand(message);
  if (!command) return false;
  const typedAnswer = command.kind === "offer" && command.offerId === undefined;
  if (await isRegisteredDriver(db, message, typedAnswer)) return true;
  // A typed "yego" to an offer that has since expired or gone to another driver is still the
  // driver's answer (they hear the ride has gone), unless they are in a conversation of their own.
  return typedAnswer && await hadRecentOffer(db, message) &&
    (await message.idle?.()) === true;
}

// Whether the sender was offered a ride within LATE_ANSWER_MS.
async function hadRecentOffer(db: Queryable, message: CounterpartMessage): Promise<boolean> {
  const [recent] = await db.query(
    `select 1 from public.drivers d join public.ride_offers o on o.driver_id = d.id
     where d.phone = $1 and d.is_active
       and o.sent_at > now() - make_interval(secs => $2)
     limit 1`,
    [`+${message.from}`, LATE_ANSWER_MS / 1000],
  );
  return Boolean(recent);
}

// Whether the sender is an active driver; with a typed answer, one with an offer still open.
async function isRegisteredDriver(
  db: Queryable,
  message: CounterpartMessage,
  typedAnswer: boolean,
): Promise<boolean> {
  const [row] = await db.query(
    `select 1 from public.drivers d
     where d.phone = $1 and d.is_active
       and (not $2 or exists (
         select 1 from public.ride_offers o
         where o.driver_id = d.id and o.status = 'pending'
           and o.expires_at > coalesce((select r.paused_at from public.ride_requests r
             where r.id = o.request_id), now())))
     limit 1`,
    [`+${message.from}`, typedAnswer],
  );
  return Boolean(row);
}

/** The driver counterpart. */
export const DRIVER_COUNTERPART: Counterpart = {
  id: "driver",
  claims: isDriverCommand,
  async handle(message, callTool) {
    const command = driverCommand(message);
    if (!command) return;
    const driverPhone = `+${message.from}`;
    if (command.kind === "offer") {
      await callTool("ride_offer_respond", {
        driver_phone: driverPhone,
        action: command.action,
        ...(command.offerId ? { offer_id: command.offerId } : {}),
      }, "ride_offer_respond");
      return;
    }
    await callTool("driver_status", {
      driver_phone: driverPhone,
      status: command.status,
      ...(message.location
        ? { lat: message.location.latitude, lng: message.location.longitude }
        : {}),
    }, "driver_status");
  },
};
