/**
 * The contract of a domain pack (`shared/packs/<domain>/mod.ts`): the one
 * place a domain lives. A pack declares its tools, its agents with their
 * example phrases, the offline flow each agent follows without a model, the
 * tables its reads may touch, its user-facing texts in en/rw/fr and the
 * services it needs. The composition root (`shared/platform/`) reads the
 * pack list and wires them; the kernel names no pack, no vendor and no
 * channel.
 *
 * @module
 */
import type { Language, Phrases } from "@shared/contract/language.ts";
import type { ToolFail, ToolResult } from "@shared/contract/mod.ts";
import type { Database, JwtClaims, Queryable } from "@shared/db/types.ts";
import type { Logger } from "@shared/runtime/log.ts";
import { type IntentExamples, STAFF_WORK_LABEL } from "./intent_types.ts";
import type { ServiceKey, ToolServices } from "./define_tool.ts";
import type { AnyTool } from "./registry.ts";
import type { z } from "zod";

export { type ServiceKey, serviceKey } from "./define_tool.ts";

/** This turn's message, as an agent sees it. */
export interface TurnInput {
  /** The inbound message id: tool idempotency keys derive from it. */
  wamid: string;
  /** What the user wrote (or the tapped button's title). */
  text: string;
  /** The tapped button or list row, if any. */
  choice?: string;
  /** A shared location. */
  location?: { latitude: number; longitude: number };
  /** The sender's phone (E.164): the mobile money number a charge is asked from. */
  phone?: string;
  /** The sender's WhatsApp profile name, when WhatsApp gave one (a booking's name). */
  name?: string;
  /** A photo or file sent: its type and, once saved, `storage://<bucket>/<path>`. */
  media?: { type: string; ref?: string };
}

// The tap the kernel enters an agent with to move the person's open work.
const MOVE_OPEN_WORK = "open_work:move:";

/**
 * The tap the kernel enters an agent with when the person asked to move their open work `id`
 * ({@linkcode OpenWork.id}) with nothing named ("move it", "ndashaka kuyimura"): the agent's
 * flow asks for the new time, or says why it cannot be moved. A flow that does not read it
 * starts afresh, as from any tap it does not know.
 */
export function moveOpenWorkChoice(id: string): string {
  return `${MOVE_OPEN_WORK}${id}`;
}

/** The open work a turn asks the agent to move ({@linkcode moveOpenWorkChoice}), or null. */
export function openWorkToMove(input: Pick<TurnInput, "choice">): string | null {
  return input.choice?.startsWith(MOVE_OPEN_WORK)
    ? input.choice.slice(MOVE_OPEN_WORK.length)
    : null;
}

/**
 * A reply, channel-neutral: text with optional buttons or list rows, or a
 * file with the text as its caption.
 */
export interface AgentReply {
  text: string;
  /**
   * A file sent with the text as its caption (a PDF the flow issued), by a
   * link the channel fetches that outlives its retries (a signed Storage URL).
   */
  document?: { link: string; filename: string; mimeType: string; size: number };
  buttons?: Array<{ id: string; title: string }>;
  rows?: Array<{ id: string; title: string; description?: string }>;
  /**
   * What a channel that shows rows as a list labels it with: the button that
   * opens it and the heading over the rows ("Choose a vendor", "Vendors").
   * @default the channel's own "Choose"
   */
  list?: { button: string; section: string };
}

/** A tool call waiting for the user's confirmation. */
export interface PendingCall {
  tool: string;
  args: unknown;
  key: string;
  summary: string;
  /**
   * The same read-back in each language the flow could draft it in: shown again after a question
   * in another language, it is read in the conversation's language of that moment.
   * @default absent: `summary` in every language
   */
  summaries?: Partial<Record<Language, string>>;
  callId: string;
}

/** One entry of the front desk's menu. */
export interface MenuEntry {
  /** The agent it leads to. */
  id: string;
  /** Its title, in every language. */
  title: Record<Language, string>;
}

/** What an offline flow sees of the conversation. */
export interface OfflineTurn {
  /** The agent the conversation is with. */
  agent: string;
  /** The user's language. */
  language: Language;
  /** This turn's message. */
  input: TurnInput;
  /** The flow's memory, kept between turns. */
  memory: Record<string, unknown>;
  /** The front desk's menu: every agent with a menu title, in pack order. */
  menu: readonly MenuEntry[];
  /** The agent that hands conversations to a person (a button `agent:<id>` reaches it). */
  handoff?: string;
  /**
   * Any agent's display name in a language, for what staff read (a ticket's
   * summary): every agent of the packs, on the menu or not; the id itself
   * for one no pack declares. @default absent: a flow names agents by id
   */
  agentName?(agentId: string, language: Language): string;
  /** The language the tenant's staff read: its first language. @default "en" */
  staffLanguage?: Language;
  /** The name the tenant's agents speak as (its brand), when the tenant has one. */
  brand?: string;
  /** The ISO 4217 currency of the tenant's prices (`orgs.currency`), when it has one set. */
  currency?: string;
  /** Whether the tenant is paid by MoMo (it has a MoMo account on record). @default unknown */
  takesMomo?: boolean;
  /**
   * Why a hand-off agent was reached without being asked for: a sensitive
   * topic, or an agent that kept failing. Absent when the user asked.
   */
  escalation?: "sensitive" | "failing";
  /**
   * The person stays in another agent's flow, which resumes after this turn
   * (a complaint made mid-flow): a hand-off raises its ticket and says a
   * person will write, without putting them in the queue. @default false
   */
  aside?: boolean;
  /**
   * The read-back of an action waiting on the person's Confirm / Cancel, when this message came
   * while it waits (a question: "can I pay with MoMo?", "how much is a ream?"). The read-back
   * is shown again after this turn's replies, so the flow answers the question alone and asks
   * for nothing the pending action already holds (no "what would you like to order?").
   * @default absent: nothing waits
   */
  confirming?: string;
  /**
   * The platform's clock at this turn (injected in tests), for flows that
   * ask about "now" (drivers online, charges still waiting, "tomorrow at 7").
   * The agent and the staff desk give it; @default absent: a flow that needs
   * it uses its own reading.
   */
  now?: Date;
  /**
   * Tells the user, before the step's slow work (reading a photo), that it
   * is under way: sent at once where the channel can, else the first of the
   * step's replies.
   */
  progress(text: string): Promise<void>;
}

/** What one offline step changes. */
export interface OfflineStep {
  /** What to answer. */
  replies?: AgentReply[];
  /** A call that needs the user's confirmation first. */
  pending?: PendingCall;
  /** Merged into the flow's memory. */
  memory?: Record<string, unknown>;
  /** Staff now hold the conversation: the channel stays silent until they release it. */
  handoff?: boolean;
  /** The flow is over: the next message starts at the front desk. */
  done?: boolean;
}

/** Calls a tool as the conversation's user; `step` names it within the turn (its idempotency key). */
export type OfflineToolCaller = (
  tool: string,
  args: unknown,
  step: string,
  options?: OfflineCallOptions,
) => Promise<ToolResult>;

/** How an offline flow's tool call may end. */
export interface OfflineCallOptions {
  /**
   * The step answers this call's failure itself (a proforma issued whose PDF could not be made:
   * its number said, the team asked to send the file), so an outage or timeout is handed to it
   * rather than putting the whole message off to a retry that an outage would use up, only to
   * end in a generic apology. @default false: a transient failure retries the message
   */
  answersFailure?: boolean;
}

/**
 * An agent's deterministic conversation, used when no model is configured
 * (or the model failed this turn): same tools, same allowlists.
 */
export type OfflineFlow = (turn: OfflineTurn, callTool: OfflineToolCaller) => Promise<OfflineStep>;

/**
 * A message from someone the platform asked something on a customer's
 * behalf (a vendor, a driver, a venue's staff), channel-neutral.
 */
export interface CounterpartMessage {
  /** The inbound message id: idempotency keys derive from it. */
  wamid: string;
  /** The sender's WhatsApp id (digits, no "+"). */
  from: string;
  /** What they wrote (or the tapped button's title). */
  text: string;
  /** The tapped button or list row id, or a template quick reply's payload. */
  choice?: string;
  /** The message this one answers (WhatsApp's context), when they replied to one. */
  contextWamid?: string;
  /** A shared location. */
  location?: { latitude: number; longitude: number };
  /** Their WhatsApp profile name. */
  profileName?: string;
  /** The tenant (org id) whose business number received it: what the sender said it to. */
  orgId?: string;
  /**
   * Whether the sender has nothing open in a conversation with this tenant: no conversation,
   * or one at the front desk, with no agent's flow, question or person waiting on an answer.
   * Asked only by a counterpart that needs it (one read).
   */
  idle?: () => Promise<boolean>;
}

/**
 * Calls a tool as the service on the business number's org; `step` names the
 * call within the message (its idempotency key).
 */
export type CounterpartToolCaller = (
  tool: string,
  args: unknown,
  step: string,
) => Promise<ToolResult>;

/**
 * A counterpart of a pack: people the pack's tools message on a customer's
 * behalf and whose answers are not customer turns (vendors answering an
 * inquiry, drivers answering a ride offer, staff confirming a payment). The
 * channel offers every inbound message to the packs' counterparts in pack
 * order before the conversation sees it; the first that claims it handles it.
 */
export interface Counterpart {
  /** Who they are, for logs and traces (e.g. "vendor", "driver"). */
  id: string;
  /**
   * Whether this message is one of theirs: an answer to something open for
   * this sender. Reads with the service connection; must not write.
   */
  claims(db: Queryable, message: CounterpartMessage): Promise<boolean>;
  /** Handles a claimed message through the pack's tools (which send any replies). */
  handle(message: CounterpartMessage, callTool: CounterpartToolCaller): Promise<void>;
}

/** Column types `search_supabase` knows how to compare. */
export type ColumnType =
  | "text"
  | "uuid"
  | "number"
  | "boolean"
  | "timestamptz"
  | "text[]"
  /** A JSON object read whole (a product's names per language); only `is_null` filters it. */
  | "jsonb";

/** Tables a pack's reads may touch: table → readable column → type. RLS still decides rows. */
export type PackTables = Record<string, Record<string, ColumnType>>;

/**
 * The part an agent plays in routing, beyond answering its own topic:
 * - `front_desk`: where conversations start and return; its flow greets and
 *   shows the menu, and answers for agents that have no flow of their own.
 * - `fallback`: where the front desk sends a message that names no topic
 *   (or a shared location) when no model picks one.
 * - `handoff`: where sensitive topics and failing agents go; its flow runs
 *   with or without a model and hands the conversation back to the front desk.
 */
export type AgentRole = "front_desk" | "fallback" | "handoff";

/** Something a conversation left open that another party waits on (a ride request). */
export interface OpenWork {
  /** Names it for {@link PendingWork.cancel} (a ride request's id). */
  id: string;
  /** What it is, in the user's language: "your moto request from Kimironko to Nyabugogo…". */
  summary: string;
  /**
   * Its state, in no language (a booking's time and party size): work the
   * user chose to keep is asked about again on a later leave only when this
   * (or its id) changed. @default the id alone names it
   */
  revision?: string;
  /**
   * False for work with no date or time to move (an order): "move it" is
   * answered that it cannot be moved, with the choice to cancel or keep it,
   * instead of entering the agent to ask for a new time. @default true
   */
  movable?: boolean;
}

/** What the kernel gives {@link PendingWork}: the conversation's language and flow memory. */
export interface PendingContext {
  /** The user's language. */
  language: Language;
  /** The flow's memory. */
  memory: Record<string, unknown>;
  /**
   * The ids of open work the user already chose to keep on an earlier leave:
   * `find` offers other open work before these (a new booking is asked
   * about; the kept one is not asked about again). @default none
   */
  kept?: ReadonlySet<string>;
}

/**
 * How an agent's open work is found and ended. When the user leaves the
 * agent's conversation ("0", the menu, another topic) the kernel asks
 * whether to cancel what is open or keep it, and cancels through this.
 */
export interface PendingWork {
  /** The open work the user would leave behind, or null. Calls tools as the user; no writes. */
  find(context: PendingContext, callTool: OfflineToolCaller): Promise<OpenWork | null>;
  /**
   * Cancels it and tells the other side (the drivers asked, the vendor);
   * resolves to what to tell the user, in their language.
   */
  cancel(work: OpenWork, context: PendingContext, callTool: OfflineToolCaller): Promise<string>;
  /**
   * Holds it while the question waits behind an urgent hand-off (the person
   * is with staff at once): nobody on the other side may act on it (a driver
   * accept) until the person answers. Absent when the work cannot be held.
   */
  pause?(work: OpenWork, context: PendingContext, callTool: OfflineToolCaller): Promise<void>;
  /** Releases a held work the person chose to keep. */
  resume?(work: OpenWork, context: PendingContext, callTool: OfflineToolCaller): Promise<void>;
}

/**
 * What an agent's flow keeps between turns, as it declares it (see
 * `typedFlow` and `resumeMemory` in flow_memory.ts).
 */
export interface FlowMemory {
  /** Bumped whenever the memory changes so that older conversations cannot be read as it is. */
  readonly version: number;
  /** The memory's schema; `{}` (a conversation that has kept nothing) must pass. */
  readonly schema: z.ZodObject;
  /**
   * Turns memory kept by another version (or refused by the schema) into
   * this version's; null when it cannot, and the conversation restarts.
   * @default none: the conversation restarts
   */
  migrate?(old: Record<string, unknown>, fromVersion: number): Record<string, unknown> | null;
}

/** Who an agent serves: customers may be routed to it; staff-only agents never are. */
export type AgentAudience = "customers" | "staff";

/** One agent of a pack: its identity, and how it routes and converses. */
export interface PackAgent {
  /** The agent id, as `config/agent_configs.yaml` enables it; unique across the pack list. */
  id: string;
  /** Its display name, e.g. "Waiter AI". */
  name: string;
  /**
   * Its display name in other languages, as staff who read them see it (a
   * ticket's summary says which agent the person was with). @default its
   * `name` in every language
   */
  names?: Partial<Record<Language, string>>;
  /** What it does, in one sentence: staff read it and the model is told it. */
  description: string;
  /** Who it serves; a customer's message never routes to a staff agent. */
  audience: AgentAudience;
  /**
   * The tools it gets when a tenant's entry in `config/agent_configs.yaml`
   * lists none: its pack's, other packs' or the kernel's, by name.
   */
  tools: readonly string[];
  /** Example first messages in en/rw/fr the router learns from. */
  intents?: IntentExamples;
  /**
   * A staff agent's work as a customer would ask for it ("make a video ad for my shop",
   * "send a message to all your customers"), in en/rw/fr. The router learns them as staff
   * work ({@linkcode STAFF_WORK_LABEL}), never as this agent: the customer is told that the
   * team does it and offered a person.
   */
  staffWork?: Readonly<Record<Language, readonly string[]>>;
  /**
   * That work named as a customer is told the team does it ("video ads", "amashusho yamamaza",
   * "les vidéos publicitaires"), in en/rw/fr: the front desk lists the names of the agents the
   * tenant runs, so a tenant without this agent never mentions its work. @default not named
   */
  staffWorkName?: Readonly<Record<Language, string>>;
  /** Whether a message names this agent's topic by its words (keyword routing, in pack order). */
  asks?(text: string): boolean;
  /**
   * Whether a message in this agent's conversation stays with it though its
   * words name another agent's topic: Legal Intake holds every request for
   * advice ("should I pay him?"), which it must refuse itself rather than
   * let payments answer. A marked change of mind ("actually, …") still leaves.
   */
  holds?(text: string): boolean;
  /**
   * Whether a first message that names a trip (an origin and a destination:
   * "kuva Remera kugera Kicukiro", "de Kimironko à Nyabugogo") is its,
   * whatever topic its other words lean to. At most one agent of all packs.
   */
  takesTrips?: boolean;
  /**
   * Whether a first message that buys or sells a vehicle ("I want to buy a car", « je vends ma
   * Subaru », "ndashaka kugura imodoka") is its, though its verbs and the vehicle's make read as
   * no topic and "a car" alone reads as a ride. At most one agent of all packs. @default false
   */
  takesVehicleTrade?: boolean;
  /**
   * Whether a request in another agent's flow to pay something that is not
   * that flow's thing (a bill, school fees, airtime, another person: "I want
   * to pay my electricity bill" while ordering) is its. At most one agent of
   * all packs. @default false
   */
  takesPayments?: boolean;
  /**
   * Whether a message complains about a service (a driver, a vendor, an
   * order, a venue) and is this agent's, whatever service its other words name:
   * "Mfite ikibazo, umushoferi yanshyize nabi" is no new ride. `inFlow`: the
   * person is in another agent's flow, which keeps them (the complaint is
   * heard aside). At most one agent of all packs. @default never
   */
  takesComplaint?(text: string, options: { inFlow: boolean }): boolean;
  /**
   * Whether this agent answers about a purchase already made (its status, its
   * invoice, money back): a first message following one up ("my order is
   * late", « facture pour ma commande A-1001 ») may reach it. @default false
   */
  answersFollowUps?: boolean;
  /**
   * Whether this agent's flow answers opening hours for the place the person is at (the one being
   * ordered from): "are you open on Sunday?" asked inside it stays with it, never every place of
   * the tenant from the front desk. @default false
   */
  answersHours?: boolean;
  /**
   * Whether a first message follows up a purchase (late, damaged, an invoice,
   * a refund) and is this agent's when the agent its words name does not
   * answer follow-ups or is not run by the tenant: a person, rather than
   * "which service?". At most one agent of all packs. @default never
   */
  takesFollowUp?(text: string): boolean;
  /** Its part in routing; one agent of all packs holds each role. */
  role?: AgentRole;
  /**
   * Its title on a menu, in every language: a customer agent's on the front
   * desk's, a staff agent's on the staff menu (only staff see it). @default
   * none: a customer agent is reached by its words only, a staff agent is
   * listed by its name
   */
  menuTitle?: Record<Language, string>;
  /** Its deterministic conversation. */
  offlineFlow?: OfflineFlow;
  /**
   * What its offline flow keeps between turns, typed and versioned (see
   * `typedFlow`): kept memory of another version is migrated, or the
   * conversation restarts with a plain message. @default untyped, never checked
   */
  memory?: FlowMemory;
  /** What its conversation may leave open, asked about when the user leaves it. */
  pending?: PendingWork;
  /**
   * Whether the tenant's places this agent sells from stock an item `text` names, in any
   * language the stock is named in, found as the customer: a first message the router cannot
   * place ("Bonjour, je voudrais des enveloppes C5", "ndashaka impapuro A4") is this agent's
   * when the tenant's own stock names its thing. @default never
   */
  stocks?(text: string, callTool: OfflineToolCaller): Promise<boolean>;
  /**
   * Its rules for a model, in a few sentences, told after its description
   * (what it must never do, the order it works in). @default none
   */
  instructions?: string;
  /**
   * Reads what the model is about to say for this agent and answers the reply
   * to send instead when it breaks a rule the agent holds whatever the prompt
   * (an intake agent that must give no legal advice), else null. The model's
   * words are replaced before anyone reads them. Offline flows keep their own
   * rules. @default every reply passes
   */
  guardReply?(text: string, turn: Pick<OfflineTurn, "language" | "handoff">): AgentReply | null;
}

/**
 * An HTTP route a pack serves to its tenant's staff (a queue, a summary,
 * an action), mounted by the composition root at
 * `/tools/packs/<pack id>/<path>`. The root lets in only staff of a tenant
 * that runs one of the pack's agents; the handler calls tools as them, so
 * tenancy holds as in any tool call.
 */
export interface PackRoute {
  /** The HTTP method. */
  method: "GET" | "POST";
  /** The path under the pack's prefix, e.g. `/summary`. */
  path: string;
  /** Answers the request. */
  handle(request: PackRequest): Promise<PackResponse>;
}

/** What a {@link PackRoute} receives: the request, and tools called as its caller. */
export interface PackRequest {
  /** The request's query parameters. */
  query: Record<string, string>;
  /** The parsed JSON body of a POST, or undefined. */
  body: unknown;
  /** The caller's tenant (org slug). */
  tenant: string;
  /**
   * Calls a tool as the caller; a side-effecting tool replays under the
   * request's `Idempotency-Key` header (required for one).
   */
  callTool(tool: string, args: unknown): Promise<ToolResult>;
}

/** What a {@link PackRoute} answers: a status and a JSON body. */
export interface PackResponse {
  /** The HTTP status. */
  status: number;
  /** The JSON body. */
  body: unknown;
}

/**
 * An HTTP endpoint a pack serves to machines rather than to its staff: a
 * provider's signed callback, a device forwarding SMS, an operator's
 * scheduler or console. Mounted (POST or GET, at `/<path>`) by the pack's own
 * function (`createPackFunction`). The root reads the body through the
 * streaming size limit and, per {@link PackEndpoint.auth}, checks the token;
 * the endpoint does the rest, as the service of the org it proves.
 */
export interface PackEndpoint {
  /** The HTTP method. */
  method: "GET" | "POST";
  /** The path under the function, e.g. `/callback`; `:name` segments are parameters. */
  path: string;
  /**
   * Who may call it, checked by the root before the handler runs:
   * - `signed`: anyone; the handler proves the sender from the raw bytes
   *   (a signature) before it parses anything;
   * - `service`: the service-role token only (a scheduler);
   * - `caller`: any signed-in caller (the service role or a member of an
   *   org); the handler acts as them, so the database decides the rest.
   */
  auth: "signed" | "service" | "caller";
  /** The largest body read, bytes (POST). */
  maxBytes: number;
  /** Answers the request. */
  handle(request: EndpointRequest): Promise<PackResponse>;
}

/** Who called an endpoint with `auth: "caller"`. */
export interface EndpointCaller {
  /** Their claims, applied to transactions run as them. */
  claims: JwtClaims;
  /** The org they act in, when they named one or have one. */
  orgId: string | null;
}

/** What a {@link PackEndpoint} receives. */
export interface EndpointRequest {
  /** The raw body, already read within the size limit (empty for GET). */
  bytes: Uint8Array;
  /** The request's headers. */
  headers: Headers;
  /** The request's query parameters. */
  query: Record<string, string>;
  /** The path's `:name` parameters. */
  params: Record<string, string>;
  /**
   * The caller the token proves, acting in `org` (slug or id) when given
   * (`auth: "caller"`); a refusal (not a member, unknown org) otherwise.
   */
  callerIn(org: string | null): Promise<EndpointCaller | ToolFail>;
  /** The database: as the caller (`asCaller`), or as the service to find the org a request acts for. */
  db: Database;
  /** Calls a tool through the pipeline as the service of `orgId`, keyed for idempotency. */
  callAsService(
    tool: string,
    args: unknown,
    options: { orgId: string; idempotencyKey: string },
  ): Promise<ToolResult>;
  /** The services the root provides (the pack's settings, messaging, the clock). */
  services: Pick<ToolServices, "get" | "now">;
  /** Logs, for refusals that are answered with nothing but a status. */
  log: Pick<Logger, "info" | "warn" | "error">;
}

/**
 * A tool a pack wants called on a schedule, for every tenant that runs one
 * of the pack's agents, as the service of that tenant's org. It must be
 * side-effecting (a fresh idempotency key each run) and do nothing when
 * nothing is due. Work of several calls (find what is due, then tell staff
 * of each) is a `run` instead of a `tool`: exactly one of the two.
 */
export interface PackSchedule {
  /** Names it in logs, e.g. "close_stale_requests". */
  id: string;
  /** The tool to call with `{}`. */
  tool?: string;
  /**
   * The work, as calls through the pipeline as the service of the tenant's
   * org (see {@link ScheduleToolCaller}); throws when a call it needs failed.
   */
  run?(callTool: ScheduleToolCaller): Promise<void>;
  /** How often, in minutes (1 to 1,440). */
  everyMinutes: number;
  /**
   * For which tenants: those running one of the pack's agents, or every
   * tenant the platform knows (work any tenant may leave, such as charges a
   * waiter or a driver asked for). @default "running"
   */
  tenants?: "running" | "every";
}

/**
 * Calls a tool for a {@link PackSchedule.run}. `step` names the call within
 * the run: its idempotency key names the schedule's period and the step, so
 * a second sweep in the same period replays it. With `once`, the key names
 * only the step (e.g. `notify:<alert id>`): the call is made once ever, so
 * work a crash left half done is finished by a later period without being
 * done twice.
 */
export type ScheduleToolCaller = (
  tool: string,
  args: unknown,
  step: string,
  options?: { once?: boolean },
) => Promise<ToolResult>;

/**
 * Something that happens in a pack's domain that automations may start on
 * (a customer's message, an order's or a payment's new status, a ticket):
 * its name, what it means, and the payload a trigger's condition and its
 * actions' `{{event.field}}` templates may read.
 */
export interface PackEvent {
  /** snake_case and unique across packs, e.g. `message_received`, `payment_status_changed`. */
  name: string;
  /** One line, for the catalog and the agent that builds automations. */
  description: string;
  /** The payload, checked before any automation sees it. */
  payload: z.ZodObject;
}

/** A domain pack. */
export interface Pack {
  /**
   * snake_case id: its agent's id where it has one agent (so its staff
   * routes, schedules and errors say which agent), else the domain's name.
   */
  id: string;
  /** Its tools, registered globally at start. */
  tools: readonly AnyTool[];
  /** Its agents. */
  agents: readonly PackAgent[];
  /** Tables its reads (search_supabase) may touch. */
  tables: PackTables;
  /** Its user-facing texts, every phrase in en, rw and fr. */
  texts: Phrases;
  /** The services its tools need, provided by the composition root. */
  services: readonly ServiceKey<unknown>[];
  /** Who answers the pack's outgoing questions on WhatsApp (vendors, drivers, staff). */
  counterparts?: readonly Counterpart[];
  /**
   * Tools the channel's periodic sweep calls with `{}` as the service of the
   * number's org (e.g. expiring unanswered ride offers and telling the rider).
   * Each must be side-effecting (it gets a fresh idempotency key per sweep)
   * and do nothing when nothing is due.
   */
  sweeps?: readonly string[];
  /** HTTP routes for the tenant's staff. */
  routes?: readonly PackRoute[];
  /** HTTP endpoints for machines (callbacks, forwarders, schedulers), served by its function. */
  endpoints?: readonly PackEndpoint[];
  /** Tools called on a schedule for each tenant that runs the pack's agents. */
  schedules?: readonly PackSchedule[];
  /** The events of its domain that automations may be triggered by. */
  events?: readonly PackEvent[];
  /**
   * Reads and checks the pack's settings, from the environment or from the
   * tenants' rows; the root calls it at start, so a bad value stops the start
   * instead of a customer's turn.
   *
   * @throws {RangeError} naming the variable (or the tenant and column) and its value.
   */
  checkSettings?: (context: SettingsContext) => void | Promise<void>;
  /**
   * Names the pack's users type that belong to no language (places, brands):
   * "Kimironko" answering "where from?" says nothing about the language, so
   * the router never switches on it.
   */
  neutralNames?: readonly string[];
  /**
   * The pack's gazetteer of places, by every name and alias users type:
   * neutral like {@link Pack.neutralNames} for language and topic ("cement
   * at Nyabugogo" is about cement), and the one a message names is handed to
   * the agent it reaches as the location.
   */
  places?: readonly string[];
  /**
   * Vehicle makes and models users type ("Toyota", "RAV4", "Forester"): neutral like
   * {@link Pack.neutralNames} ("insure my RAV4" and "sell my RAV4" differ by their verbs), and
   * read as a vehicle where a verb of buying or selling has one for its object.
   */
  vehicleNames?: readonly string[];
}

/** What a pack's {@link Pack.checkSettings} may use at start. */
export interface SettingsContext {
  /** The database as the root connects to it: settings a tenant keeps on its rows. */
  db: Queryable;
  /** For operators: what is valid but worth knowing (a tenant without an optional setting). */
  log: Pick<Logger, "info" | "warn">;
}

/** Every pack's neutral names (brands, makes) and places, which the router reads as no language and no topic. */
export function packNeutralNames(packs: readonly Pack[]): string[] {
  return packs.flatMap((pack) => [
    ...pack.neutralNames ?? [],
    ...pack.vehicleNames ?? [],
    ...pack.places ?? [],
  ]);
}

/** Every pack's vehicle makes and models, which the router reads as a vehicle traded. */
export function packVehicleNames(packs: readonly Pack[]): string[] {
  return packs.flatMap((pack) => pack.vehicleNames ?? []);
}

/** Every pack's places, which the router hands to the agent as the location. */
export function packPlaces(packs: readonly Pack[]): string[] {
  return packs.flatMap((pack) => pack.places ?? []);
}

/** Every agent's intent examples, in pack order, for training the router. */
export function packIntents(packs: readonly Pack[]): IntentExamples[] {
  return packs.flatMap((pack) => pack.agents.flatMap((agent) => agent.intents ?? []));
}

/**
 * The staff agents' work as customers ask for it (`PackAgent.staffWork`), as one class of
 * examples labelled {@linkcode STAFF_WORK_LABEL}; none when no pack has any.
 */
export function packStaffWork(packs: readonly Pack[]): IntentExamples[] {
  const phrases: Record<Language, string[]> = { en: [], rw: [], fr: [] };
  for (const agent of packs.flatMap((pack) => pack.agents)) {
    for (const [language, list] of Object.entries(agent.staffWork ?? {})) {
      phrases[language as Language].push(...list);
    }
  }
  return Object.values(phrases).some((list) => list.length > 0)
    ? [{ agent: STAFF_WORK_LABEL, phrases }]
    : [];
}

/** Every agent of the packs, in pack order (the menu's order). */
export function packAgents(packs: readonly Pack[]): PackAgent[] {
  return packs.flatMap((pack) => [...pack.agents]);
}

/** The agents a customer may be routed to, in pack order. */
export function customerAgents(packs: readonly Pack[]): string[] {
  return packAgents(packs).filter((agent) => agent.audience === "customers").map((a) => a.id);
}

/** The agents only staff use, in pack order: a customer's message never routes to them. */
export function staffAgents(packs: readonly Pack[]): string[] {
  return packAgents(packs).filter((agent) => agent.audience === "staff").map((a) => a.id);
}

/**
 * The union of the packs' readable tables.
 *
 * @throws {TypeError} when two packs give one column different types.
 */
export function packTables(packs: readonly Pack[]): PackTables {
  const union: PackTables = {};
  for (const pack of packs) {
    for (const [table, columns] of Object.entries(pack.tables)) {
      const merged = union[table] ??= {};
      for (const [column, type] of Object.entries(columns)) {
        if (merged[column] && merged[column] !== type) {
          throw new TypeError(
            `Cannot merge pack tables as ${table}.${column} is ${
              merged[column]
            } and, in pack "${pack.id}", ${type}`,
          );
        }
        merged[column] = type;
      }
    }
  }
  return union;
}

/**
 * A pack that so far only teaches the router one agent: no tools, tables,
 * texts or services; offline, the front desk answers for its agent.
 */
export function agentOnlyPack(id: string, agent: PackAgent): Pack {
  return { id, tools: [], agents: [agent], tables: {}, texts: {}, services: [] };
}
