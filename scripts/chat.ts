/**
 * `deno task chat`: a WhatsApp phone in the terminal, against the running dev
 * server. Each line typed becomes a signed webhook delivery, exactly as Meta
 * would post it; what the platform sends back to this number (read from the
 * dev outbox) is printed as the phone would show it. Play a buyer or a
 * vendor: the role follows from the number.
 *
 * ```
 * deno task chat [--phone +250788000001] [--name Aline] [--url http://127.0.0.1:54321]
 *                [--script FILE] [--history MINUTES]
 * ```
 *
 * Lines: plain text, or `/loc`, `/tap`, `/pick`, `/reply`, `/image`, `/doc`, `/wait`,
 * `/clock`, `/quit` (see `/help`). Interactive when stdin is a terminal; otherwise (and
 * with `--script`) each line waits for the replies to settle before the next,
 * so a script reads like a conversation.
 *
 * Exit codes: 0 on `/quit` or end of input, 1 when the dev server is
 * unreachable or refuses us, 2 on usage errors.
 *
 * @module
 */
import { sha256Hex } from "@shared/runtime/canonical.ts";
import { parseCli, runCli, UsageError } from "./_cli.ts";
import { createInterface } from "node:readline";
import process from "node:process";
import { signDevToken } from "@shared/auth/jwt.ts";
import { devJwtSecret } from "@shared/runtime/secrets.ts";
import { messageDelivery, type SimulatedContent } from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import { toWaId } from "@shared/contract/wa_id.ts";
import {
  type DevHolding,
  devServerUrl,
  type DevUser,
  readDevHoldings,
  readDevSecret,
  readDevUsers,
  unreachableHint,
} from "./_data_root.ts";
import {
  LOCAL_PHONE_NUMBER_ID,
  localPaymentSecrets,
  localWhatsAppSecrets,
} from "./_local_secrets.ts";
import { APPROVED_TEMPLATE_BUTTONS } from "./_template_buttons.ts";
import { approvedTemplateBodies } from "./_template_bodies.ts";
import { SIGNATURE_HEADER, signCallback } from "@shared/packs/payments/callback_signature.ts";
import { signForwarded } from "@shared/packs/payments/forwarder_auth.ts";
import { DEV_FORWARDERS, devForwarderSecret } from "./_dev_forwarders.ts";
import { LOCAL_GRAPH_PREFIX, uploadMedia } from "@shared/channels/whatsapp/local_media.ts";
import {
  type Choice,
  choicesOf,
  type Command,
  HELP,
  messageLines,
  mimeTypeOf,
  type OutboxRow,
  parseLine,
  type PaymentStatus,
  renderRow,
  useTemplateTitles,
} from "./_chat_render.ts";

// Template messages show the approved quick-reply titles, as a phone does.
useTemplateTitles(APPROVED_TEMPLATE_BUTTONS);

const USAGE = `usage: deno task chat [--phone E164 | --as ROLE] [--name NAME] [--url BASE]
                      [--number ID [--app-secret NAME]] [--script FILE] [--history MINUTES]
  --phone    the number you play (default +250788000001, the buyer Aline)
  --as       play a seeded role: buyer, vendor (Pharmacie Kacyiru), venue (Café Nyamirambo),
             driver (a moto driver), staff; the role is shown at start
  --name     your WhatsApp profile name (default: the seeded user's name)
  --url      the dev server (default http://127.0.0.1:$PORT, 54321 when PORT is unset)
  --number   the business number you write to, by phone_number_id: its tenant answers
             (default 100000000000001, EasyMO's; 100000000000002 is Beaver's Choice's)
  --app-secret  for a number the seed does not hold: the app secret name its row gives
             (tenant_whatsapp_numbers.app_secret_name); deliveries are signed with its secret
  --script   read lines from FILE instead of stdin
  --history  show messages to this number from the last MINUTES at start (default 10)`;

const POLL_MS = 700;
/** A queued message is shown anyway after this long (e.g. held by the pair rate limit). */
const SHOW_QUEUED_AFTER_MS = 10_000;
/** Rows are re-read this far back: a transaction may commit a row dated before a later one. */
const LOOKBACK_MS = 30_000;

export { UsageError };

/** The dev server cannot be reached or refuses us: exit code 1. */
export class ServerError extends Error {}

/** Options for {@link createPhone}. */
export interface PhoneOptions {
  /** Dev server base URL. */
  url: string;
  /** The simulated number (wa_id digits). */
  waId: string;
  /** WhatsApp profile name. */
  name: string;
  /** The business number written to (its tenant answers). @default EasyMO's seeded number */
  phoneNumberId?: string;
  /** Signs webhook deliveries. */
  appSecret: string;
  /** Service-role dev token, to read the outbox. */
  token: string;
  /** The local Graph media token (uploads). */
  mediaToken: string;
  /** Show messages queued since this time. */
  since: Date;
  /** Prints a block of output. */
  print: (text: string) => void;
  /** Dim the status lines. */
  color: boolean;
}

interface Seen {
  row: OutboxRow;
  firstSeen: number;
  printed: boolean;
}

/** A simulated phone: sends deliveries, shows what the platform sends back. */
export interface Phone {
  /** Sends one message (a signed delivery). */
  send(content: SimulatedContent, contextWamid?: string): Promise<void>;
  /** Uploads a file to the dev server's local Graph media endpoints; answers its media id. */
  upload(file: { bytes: Uint8Array; mimeType: string; filename: string }): Promise<string>;
  /** Reads the outbox once and prints what is new. Calls are serialised. */
  poll(): Promise<void>;
  /**
   * Waits until nothing is pending and no new message arrived for `quietMs`;
   * with `expectReply`, waits up to `firstMs` for a first message.
   */
  settle(options: { quietMs: number; firstMs: number; expectReply: boolean }): Promise<void>;
  /**
   * The options of the latest message to this number that offers any
   * (buttons, list rows, quick replies): older ones are stale. A string says
   * why there is nothing to tap (none yet, or a newer one still on its way).
   */
  latestChoices(): { row: OutboxRow; choices: Choice[] } | string;
  /** The messages shown so far, oldest first. */
  shownRows(): readonly OutboxRow[];
  /** The last message shown. */
  lastShown(): OutboxRow | undefined;
}

/** Creates a {@link Phone}. */
export function createPhone(options: PhoneOptions): Phone {
  const { url, waId, print } = options;
  const seen = new Map<string, Seen>();
  const shown: OutboxRow[] = [];
  let lastArrival = Date.now();
  let queue = Promise.resolve();
  const encoder = new TextEncoder();
  // How many of our messages the server is still answering (a progress note comes first).
  let working = 0;

  async function readOutbox(): Promise<OutboxRow[]> {
    const settled = [...seen.values()].filter((entry) => entry.printed && entry.row.wamid);
    const newest = settled.at(-1)?.row.created_at;
    const after = newest
      ? new Date(Math.max(Date.parse(newest) - LOOKBACK_MS, options.since.getTime()))
      : options.since;
    const query = new URLSearchParams({ to: waId, after: after.toISOString() });
    let response: Response;
    try {
      response = await fetch(`${url}/dev/v1/wa-outbox?${query}`, {
        headers: { authorization: `Bearer ${options.token}` },
      });
    } catch (error) {
      throw new ServerError(`${unreachableHint(url)} (${errorText(error)})`);
    }
    if (response.status === 401) {
      await response.body?.cancel();
      throw new ServerError(
        "the dev server refused our token: it runs with another secret " +
          "(same EASYMO_DATA_DIR or EASYMO_SECRET as the server?)",
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new ServerError(`the dev server's outbox answered ${response.status}`);
    }
    const answer = (await response.json()) as { data: OutboxRow[]; working?: number };
    working = answer.working ?? 0;
    return answer.data;
  }

  async function pollOnce(): Promise<void> {
    const now = Date.now();
    for (const row of await readOutbox()) {
      const entry = seen.get(row.id);
      if (!entry) {
        seen.set(row.id, { row, firstSeen: now, printed: false });
        lastArrival = now;
        continue;
      }
      if (entry.printed && row.status !== entry.row.status && row.status === "failed") {
        print(dim(`   (not delivered: ${row.status})`, options.color));
      }
      entry.row = row;
    }
    // Shown in order: a message waits for the ones queued before it.
    for (const entry of seen.values()) {
      if (entry.printed) continue;
      const pending = ["queued", "sending"].includes(entry.row.status);
      if (pending && now - entry.firstSeen < SHOW_QUEUED_AFTER_MS) break;
      entry.printed = true;
      shown.push(entry.row);
      print(renderRow(entry.row, { color: options.color, templates: approvedTemplateBodies() }));
    }
  }

  const phone: Phone = {
    async send(content, contextWamid) {
      const delivery = messageDelivery({
        from: waId,
        name: options.name,
        contextWamid,
        phoneNumberId: options.phoneNumberId ?? LOCAL_PHONE_NUMBER_ID,
      }, content);
      const bytes = encoder.encode(JSON.stringify(delivery));
      let response: Response;
      try {
        response = await fetch(`${url}/functions/v1/wa-webhook`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-hub-signature-256": await signBody(options.appSecret, bytes),
          },
          body: bytes,
        });
      } catch (error) {
        throw new ServerError(`${unreachableHint(url)} (${errorText(error)})`);
      }
      const text = await response.text();
      if (!response.ok) print(`✗ the webhook answered ${response.status} ${text}`);
    },
    upload(file) {
      return uploadMedia({
        baseUrl: `${url}${LOCAL_GRAPH_PREFIX}`,
        phoneNumberId: LOCAL_PHONE_NUMBER_ID,
        token: options.mediaToken,
        ...file,
      }).catch((error) => {
        if (error instanceof TypeError) {
          throw new ServerError(`${unreachableHint(url)} (${errorText(error)})`);
        }
        throw error;
      });
    },
    poll() {
      queue = queue.then(pollOnce);
      return queue;
    },
    async settle({ quietMs, firstMs, expectReply }) {
      const start = Date.now();
      const arrivedBefore = lastArrival;
      // Bounded: a stuck queue is shown after SHOW_QUEUED_AFTER_MS anyway.
      while (Date.now() - start < SHOW_QUEUED_AFTER_MS + firstMs + quietMs) {
        await phone.poll();
        const pending = [...seen.values()].some((entry) => !entry.printed);
        const arrived = lastArrival > arrivedBefore;
        const quiet = Date.now() - Math.max(lastArrival, start) >= quietMs;
        const waitedEnough = arrived || !expectReply || Date.now() - start >= firstMs;
        if (!pending && quiet && waitedEnough && working === 0) return;
        await sleep(250);
      }
    },
    latestChoices() {
      // A message with options that has not been shown yet would make the shown ones stale.
      const waiting = [...seen.values()].some((entry) =>
        !entry.printed && choicesOf(entry.row.body).length > 0
      );
      if (waiting) return "a newer message with options is on its way: wait for it, then tap";
      for (const row of shown.toReversed()) {
        const choices = choicesOf(row.body);
        if (choices.length) return { row, choices };
      }
      return "no message with options yet";
    },
    shownRows: () => shown,
    lastShown: () => shown.at(-1),
  };
  return phone;
}

/**
 * What a `/tap` sends: option `n` (1-based) of the latest message with
 * options, or the one with this title (or id). Anything else is a local
 * error naming the options there are: nothing stale or made up is sent.
 */
export function choose(choices: readonly Choice[], wanted: string): SimulatedContent | string {
  const titleOf = (c: Choice) => c.kind === "quick" ? c.text : c.title;
  const offered = choices.map((c, index) => `[${index + 1}] ${titleOf(c)}`).join("  ");
  let choice: Choice | undefined;
  if (/^\d+$/.test(wanted)) {
    choice = choices[Number(wanted) - 1];
    if (!choice) return `there is no option ${wanted} on the latest message: ${offered}`;
  } else {
    const lower = wanted.toLowerCase();
    choice = choices.find((c) => titleOf(c).toLowerCase() === lower) ??
      choices.find((c) => (c.kind === "quick" ? c.payload : c.id).toLowerCase() === lower);
    if (!choice) return `no option “${wanted}” on the latest message: ${offered}`;
  }
  if (choice.kind === "button") return { buttonReply: { id: choice.id, title: choice.title } };
  if (choice.kind === "quick") {
    return { quickReply: { payload: choice.payload, text: choice.text } };
  }
  return {
    listReply: {
      id: choice.id,
      title: choice.title,
      ...(choice.description ? { description: choice.description } : {}),
    },
  };
}

/** Posts what the payment side says: a settlement callback (`/paid`) or a forwarded SMS (`/sms`). */
export interface PaymentPoster {
  /** Posts it, signed; answers the line to print. */
  post(
    command: { type: "paid"; ref: string; status: PaymentStatus; amount?: number } | {
      type: "sms";
      text: string;
    },
    shown: readonly OutboxRow[],
  ): Promise<string>;
}

/** The amount the latest message naming `ref` asks ("To pay 1,200 RWF … Reference PAY-…"). */
export function amountFor(ref: string, shown: readonly OutboxRow[]): number | undefined {
  for (const row of shown.toReversed()) {
    const text = messageLines(row.body, approvedTemplateBodies()).join("\n");
    if (!text.toUpperCase().includes(ref)) continue;
    const amount = /([\d][\d,]*)\s*(?:RWF|Frw)/i.exec(text)?.[1];
    if (amount) return Number(amount.replaceAll(",", ""));
  }
  return undefined;
}

/** A forwarder the simulator posts SMS as: its device id and secret. */
export interface SimulatedForwarder {
  /** The device id. */
  deviceId: string;
  /** Its secret. */
  secret: string;
}

/** The embedded dev setup's EasyMO forwarder, whose key the dev server derives from `devSecret`. */
export function devSmsForwarder(devSecret: string): SimulatedForwarder {
  const { deviceId } = DEV_FORWARDERS[0];
  return { deviceId, secret: devForwarderSecret(devSecret, deviceId) };
}

/** Signs and posts to the local payments function, as the provider and the SMS forwarder do. */
export function createPaymentPoster(
  options: { url: string; callbackSecret: string; forwarder: SimulatedForwarder; payer: string },
): PaymentPoster {
  const encoder = new TextEncoder();
  async function send(
    path: string,
    sign: (body: Uint8Array) => Promise<Record<string, string>>,
    payload: unknown,
  ): Promise<Response> {
    const body = encoder.encode(JSON.stringify(payload));
    try {
      return await fetch(`${options.url}/functions/v1/payments/${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...await sign(body) },
        body,
      });
    } catch (error) {
      throw new ServerError(`${unreachableHint(options.url)} (${errorText(error)})`);
    }
  }
  return {
    async post(command, shown) {
      let response: Response;
      if (command.type === "paid") {
        const amount = command.amount ?? amountFor(command.ref, shown);
        if (amount === undefined) {
          return `✗ no message shows ${command.ref} with its amount: /paid ${command.ref} ${command.status} <amount>`;
        }
        const secret = options.callbackSecret;
        response = await send("callback", async (body) => ({
          [SIGNATURE_HEADER]: await signCallback({ secret, body }),
        }), {
          momo_ref: command.ref,
          status: command.status,
          provider_txn_id: `SIM${Date.now()}`,
          amount,
          payer_phone: options.payer,
        });
      } else {
        const { deviceId, secret } = options.forwarder;
        response = await send("sms", (body) => signForwarded({ deviceId, secret, body }), {
          sender: /airtel/i.test(command.text) ? "AirtelMoney" : "M-Money",
          text: command.text,
          received_at: new Date().toISOString(),
        });
      }
      const text = await response.text();
      const what = command.type === "paid" ? `callback ${command.ref} ${command.status}` : "SMS";
      return response.ok
        ? `✓ ${what} posted (${response.status}) ${text.slice(0, 300)}`
        : `✗ the payments function answered ${response.status} to the ${what}: ${
          text.slice(0, 300)
        }`;
    },
  };
}

function dim(text: string, color: boolean): string {
  return color ? `\x1b[2m${text}\x1b[22m` : text;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function devSecret(): Promise<string> {
  const secret = await readDevSecret();
  if (!secret) {
    throw new ServerError("no dev secret found: start the dev server with deno task dev");
  }
  return secret;
}

function profileName(waId: string, users: readonly DevUser[]): string {
  return users.find((user) => user.phone === `+${waId}`)?.display_name ?? "WhatsApp user";
}

async function* linesOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  let buffer = "";
  for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    const parts = buffer.split(/\r?\n/);
    buffer = parts.pop()!;
    yield* parts;
  }
  if (buffer) yield buffer;
}

/** Checks that the dev server serves the webhook and shares our secret. */
async function checkServer(url: string, verifyToken: string): Promise<void> {
  const query = new URLSearchParams({
    "hub.mode": "subscribe",
    "hub.verify_token": verifyToken,
    "hub.challenge": "ping",
  });
  let response: Response;
  try {
    response = await fetch(`${url}/functions/v1/wa-webhook?${query}`);
  } catch {
    throw new ServerError(unreachableHint(url));
  }
  const body = await response.text();
  if (response.status === 404) {
    throw new ServerError(`the dev server at ${url} does not serve wa-webhook`);
  }
  if (response.status !== 200 || body !== "ping") {
    throw new ServerError(
      `the webhook at ${url} refused our verify token (${response.status}): ` +
        "is the server using the same EASYMO_DATA_DIR or EASYMO_SECRET?",
    );
  }
}

/** A seeded number for each role `--as` plays. */
export const ROLE_PHONES: Record<string, string> = {
  buyer: "+250788000001", // Aline Uwase, a customer
  vendor: "+250788000009", // Pharmacie Kacyiru (answers buy & sell inquiries)
  venue: "+250788000005", // Café Nyamirambo's staff (orders, reservations)
  driver: "+250788100100", // Emmanuel Habyarimana, moto driver
  staff: "+250788000002", // Jean Habimana, EasyMO staff
};

/**
 * Who a number is in the seed, for the line the simulator starts with: the
 * shop, venue or vehicle it answers for by name (`vendor of Pharmacie
 * Kacyiru (pharmacy, Kacyiru)`), else the role asked with `--as`, else its
 * memberships (customer, staff) or "a new customer".
 *
 * @param waId The number played (wa_id digits).
 * @param seed The seeded users and holdings the dev server wrote.
 * @param asked The `--as` role, if any.
 */
export function roleOf(
  waId: string,
  seed: { users: readonly DevUser[]; holdings: readonly DevHolding[] },
  asked?: string,
): string {
  const user = seed.users.find((candidate) => candidate.phone === `+${waId}`);
  const held = seed.holdings.filter((holding) =>
    holding.phone === `+${waId}` || (user && holding.owner_user_id === user.id)
  );
  if (held.length) {
    return held.map((holding) => {
      const kind = { shop: "vendor of", venue: "venue", vehicle: "driver of" }[holding.kind];
      return `${kind} ${holding.name} (${holding.detail})`;
    }).join(", ");
  }
  if (asked) return asked;
  const roles = [...new Set(user?.orgs.map((org) => org.role) ?? [])];
  return roles.length ? roles.join(", ") : "a new customer";
}

/** Runs the simulator; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const { values } = parseCli(argv, {
    options: {
      phone: { type: "string" },
      as: { type: "string" },
      name: { type: "string" },
      url: { type: "string", default: devServerUrl() },
      script: { type: "string" },
      history: { type: "string", default: "10" },
      number: { type: "string", default: LOCAL_PHONE_NUMBER_ID },
      "app-secret": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (values.as !== undefined && !(values.as in ROLE_PHONES)) {
    throw new UsageError(`--as must be one of ${Object.keys(ROLE_PHONES).join(", ")}`);
  }
  const phoneArg = values.phone ?? ROLE_PHONES[values.as ?? "buyer"];
  let waId: string;
  try {
    waId = toWaId(phoneArg);
  } catch {
    throw new UsageError(`not a phone number: ${phoneArg}`);
  }
  const history = Number(values.history);
  if (!Number.isFinite(history) || history < 0) {
    throw new UsageError(`--history must be a number of minutes: ${values.history}`);
  }
  if (!/^[0-9]{1,32}$/.test(values.number)) {
    throw new UsageError(`--number must be a phone_number_id (digits): ${values.number}`);
  }
  const url = values.url.replace(/\/+$/, "");
  if (!/^https?:\/\/[^/]+$/.test(url)) throw new UsageError(`not a base URL: ${values.url}`);
  let scriptLines: string[] | undefined;
  if (values.script) {
    try {
      scriptLines = (await Deno.readTextFile(values.script)).split(/\r?\n/);
    } catch (error) {
      throw new UsageError(`cannot read ${values.script}: ${errorText(error)}`);
    }
  }

  const secret = await devSecret();
  const { secrets, appSecretOf, verifyToken, mediaToken } = localWhatsAppSecrets(secret);
  // Each number's deliveries are signed with its own app's secret, as Meta does.
  let appSecret: string;
  try {
    const named = values["app-secret"];
    if (named !== undefined && !/^[A-Z][A-Z0-9_]{0,99}$/.test(named)) {
      throw new RangeError(`--app-secret must be a secret name such as WHATSAPP_APP_SECRET_ACME`);
    }
    appSecret = named ? secrets(named) : appSecretOf(values.number);
  } catch (error) {
    throw new UsageError(errorText(error));
  }
  await checkServer(url, verifyToken);
  const token = await signDevToken(devJwtSecret(secret), { role: "service_role" });
  const seed = { users: await readDevUsers() ?? [], holdings: await readDevHoldings() ?? [] };
  const name = values.name ?? profileName(waId, seed.users);

  const interactive = !scriptLines && Deno.stdin.isTerminal();
  const color = Deno.stdout.isTerminal() && !Deno.noColor;
  // jimp's image-q pins @types/node 16.9 beside the project's own, so node:readline's
  // stream types and process's differ in the checker; at run time they are Node's streams.
  type ReadlineOptions = Parameters<typeof createInterface>[0];
  const readline = interactive
    ? createInterface({
      input: process.stdin as unknown as ReadlineOptions["input"],
      output: process.stdout as unknown as ReadlineOptions["output"],
      prompt: "> ",
    })
    : undefined;
  const print = (text: string) => {
    if (!readline) return console.log(text);
    process.stdout.write(`\r\x1b[K${text}\n`);
    readline.prompt(true);
  };
  const moveClock = (at: string) => postClock(url, token, at);
  const phone = createPhone({
    url,
    waId,
    name,
    phoneNumberId: values.number,
    appSecret,
    token,
    mediaToken,
    since: new Date(Date.now() - history * 60_000),
    print,
    color,
  });

  const role = roleOf(waId, seed, values.as);
  const payments = createPaymentPoster({
    url,
    ...localPaymentSecrets(secret),
    forwarder: devSmsForwarder(secret),
    payer: `+${waId}`,
  });
  console.log(
    dim(
      `WhatsApp as +${waId} (${name}), ${role}, on ${url}. /help for commands, /quit to leave.`,
      color,
    ),
  );
  await phone.poll();
  readline?.prompt();

  let running = true;
  const background = (async () => {
    while (running) {
      await sleep(POLL_MS);
      if (!running) break;
      try {
        await phone.poll();
      } catch (error) {
        // A lost server ends the session, even while waiting for input.
        console.error(`chat: ${errorText(error)}`);
        Deno.exit(1);
      }
    }
  })();

  const lines: Iterable<string> | AsyncIterable<string> = scriptLines ??
    readline ?? linesOf(Deno.stdin.readable);
  const settle = (expectReply: boolean) =>
    phone.settle({ quietMs: 1500, firstMs: 5000, expectReply });

  for await (const line of lines) {
    const command = parseLine(line);
    if (!interactive && command.type !== "empty") print(`> ${line.trim()}`);
    const sent = await run(phone, command, print, payments, moveClock);
    if (sent === "quit") break;
    if (!interactive && sent) await settle(true);
    readline?.prompt();
  }
  if (!interactive) await settle(false);
  running = false;
  await background;
  readline?.close();
  return 0;
}

/**
 * Moves the dev server's clock (`POST /dev/v1/clock`, service role): answers
 * the line to print.
 */
export async function postClock(url: string, token: string, at: string): Promise<string> {
  const response = await fetch(`${url}/dev/v1/clock`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ at }),
  });
  const answer = await response.json().catch(() => null);
  if (response.status === 404) return "✗ this dev server's clock cannot move (a DATABASE_URL)";
  if (!answer?.ok) return `✗ ${answer?.error?.msg ?? `the dev server answered ${response.status}`}`;
  return `⏰ dev clock: ${answer.data.now}`;
}

/** Runs one command; true when something was sent. */
async function run(
  phone: Phone,
  command: Command,
  print: (text: string) => void,
  payments: PaymentPoster,
  moveClock: (at: string) => Promise<string>,
): Promise<boolean | "quit"> {
  switch (command.type) {
    case "empty":
      return false;
    case "help":
      print(HELP);
      return false;
    case "quit":
      return "quit";
    case "error":
      print(`✗ ${command.message}`);
      return false;
    case "wait":
      await sleep(command.seconds * 1000);
      await phone.poll();
      return false;
    case "clock":
      print(await moveClock(command.at));
      // What fell due was queued by the sweep: shown as it arrives.
      return true;
    case "text": {
      const context = command.reply ? phone.lastShown() : undefined;
      if (command.reply && !context?.wamid) {
        print("✗ nothing to reply to yet");
        return false;
      }
      await phone.send({ text: command.text }, context?.wamid ?? undefined);
      break;
    }
    case "location": {
      const { latitude, longitude, name } = command;
      await phone.send({ location: { latitude, longitude, ...(name ? { name } : {}) } });
      break;
    }
    case "media": {
      // Uploaded to the dev server's local Graph media endpoints, as a phone's file is to Meta.
      let bytes: Uint8Array;
      try {
        bytes = await Deno.readFile(command.path);
      } catch (error) {
        print(`✗ cannot read ${command.path}: ${errorText(error)}`);
        return false;
      }
      const mimeType = mimeTypeOf(command.path);
      const filename = command.path.split(/[\\/]/).pop()!;
      let id: string;
      try {
        id = await phone.upload({ bytes, mimeType, filename });
      } catch (error) {
        print(`✗ ${errorText(error)}`);
        return false;
      }
      await phone.send({
        media: {
          type: command.mediaType,
          id,
          mimeType,
          sha256: await sha256Hex(bytes),
          ...(command.mediaType === "document" ? { filename } : {}),
          ...(command.caption ? { caption: command.caption } : {}),
        },
      });
      break;
    }
    case "paid":
    case "sms":
      print(await payments.post(command, phone.shownRows()));
      return false;
    case "tap": {
      await phone.poll();
      const last = phone.latestChoices();
      if (typeof last === "string") {
        print(`✗ ${last}`);
        return false;
      }
      const content = choose(last.choices, command.choice);
      if (typeof content === "string") {
        print(`✗ ${content}`);
        return false;
      }
      await phone.send(content, last.row.wamid ?? undefined);
      break;
    }
  }
  await phone.poll();
  return true;
}

if (import.meta.main) await runCli(main, { name: "chat", usage: USAGE, expected: [ServerError] });
