/**
 * The chat simulator's pure parts: what a typed line means, and how an
 * outbox row looks on the phone. No I/O here, so both are unit tested.
 *
 * @module
 */
import { type TemplateBodies, templateText } from "./_template_bodies.ts";

/** A row of `GET /dev/v1/wa-outbox`: one message the platform queued or sent. */
export interface OutboxRow {
  /** Outbox id. */
  id: string;
  /** text, buttons, list or template. */
  kind: string;
  /** The Graph API message body. */
  body: Record<string, unknown>;
  /** queued, sending, sent, delivered, read or failed. */
  status: string;
  /** The wamid the transport gave it, once sent. */
  wamid: string | null;
  /** When it was queued (ISO, microseconds). */
  created_at: string;
  /** The brand of the tenant whose number sent it. @default "EasyMO" */
  sender?: string;
}

/** Something a person can tap or pick in a received message. */
export type Choice =
  | { kind: "button"; id: string; title: string }
  | { kind: "row"; id: string; title: string; description?: string }
  | { kind: "quick"; payload: string; text: string };

/** Places in Kigali for `/loc NAME`: latitude, longitude, label. */
export const PLACES: Record<string, { latitude: number; longitude: number; name: string }> = {
  kimihurura: { latitude: -1.9530, longitude: 30.0905, name: "Kimihurura, Kigali" },
  remera: { latitude: -1.9577, longitude: 30.1127, name: "Remera, Kigali" },
  nyamirambo: { latitude: -1.9785, longitude: 30.0443, name: "Nyamirambo, Kigali" },
  kacyiru: { latitude: -1.9370, longitude: 30.0830, name: "Kacyiru, Kigali" },
  cbd: { latitude: -1.9441, longitude: 30.0619, name: "Kigali CBD (Nyarugenge)" },
};

/** A typed line, understood. */
export type Command =
  | { type: "text"; text: string; reply?: boolean }
  | { type: "location"; latitude: number; longitude: number; name?: string }
  | { type: "tap"; choice: string }
  | { type: "paid"; ref: string; status: PaymentStatus; amount?: number }
  | { type: "sms"; text: string }
  | { type: "media"; mediaType: "image" | "document"; path: string; caption?: string }
  | { type: "wait"; seconds: number }
  | { type: "clock"; at: string }
  | { type: "help" }
  | { type: "quit" }
  | { type: "empty" }
  | { type: "error"; message: string };

/** What a settlement callback may say (`/paid`). */
export type PaymentStatus = "SUCCESSFUL" | "FAILED" | "INSUFFICIENT_FUNDS" | "EXPIRED";

const PAYMENT_STATUSES: readonly PaymentStatus[] = [
  "SUCCESSFUL",
  "FAILED",
  "INSUFFICIENT_FUNDS",
  "EXPIRED",
];

/** The commands, as `/help` prints them. */
export const HELP = `Type a message and press Enter to send it. Commands:
  /loc <lat> <lng> [name]   share a location (or /loc ${Object.keys(PLACES).join("|")})
  /tap <n|title>            tap option n (button, list row or quick reply) of the latest
                            message with options, or the one with that title; /pick is the same
  /reply <text>             reply to the last message received (quotes it)
  /image <path> [caption]   send a photo (JPEG or PNG file; the path has no spaces)
  /doc <path> [caption]     send a document (PDF, text, Office)
  /paid <ref> [STATUS] [amount]
                            the MoMo settlement callback for a payment (STATUS: SUCCESSFUL by
                            default, FAILED, INSUFFICIENT_FUNDS, EXPIRED), signed as the provider
  /sms <text>               a MoMo confirmation SMS, as the merchant's SMS forwarder posts it
  /wait <sec>               wait, showing what arrives
  /clock <time>             move the dev server's clock forward to <time> (Kigali time
                            "2026-11-28 08:00", or ISO 8601 with its offset) and run its sweep:
                            what fell due by then (a broadcast, a reminder) goes out
  /quit                     leave (Ctrl-D too)`;

/** A time as `/clock` takes it: Kigali's `YYYY-MM-DD HH:MM`, or ISO 8601 with an offset. */
function clockTime(text: string): string | null {
  const local = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})$/.exec(text);
  const iso = local ? `${local[1]}T${local[2]}:00+02:00` : text;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(iso)) return null;
  return Number.isNaN(Date.parse(iso)) ? null : iso;
}

/**
 * Reads one typed line.
 *
 * @param line What the person typed.
 * @returns The command, `empty` for a blank line, `error` with a hint for a malformed one.
 */
export function parseLine(line: string): Command {
  const trimmed = line.trim();
  if (!trimmed) return { type: "empty" };
  if (!trimmed.startsWith("/")) return { type: "text", text: trimmed };
  const [head, ...words] = trimmed.split(/\s+/);
  const rest = trimmed.slice(head.length).trim();
  switch (head.toLowerCase()) {
    case "/loc": {
      const place = PLACES[rest.toLowerCase()];
      if (place) return { type: "location", ...place };
      const [lat, lng, ...name] = words;
      const latitude = Number(lat);
      const longitude = Number(lng);
      if (
        lat === undefined || lng === undefined || !Number.isFinite(latitude) ||
        !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180
      ) {
        return {
          type: "error",
          message: `usage: /loc <lat> <lng> [name] or /loc ${Object.keys(PLACES).join("|")}`,
        };
      }
      return {
        type: "location",
        latitude,
        longitude,
        ...(name.length ? { name: name.join(" ") } : {}),
      };
    }
    case "/tap":
    case "/pick":
      if (!rest) return { type: "error", message: `usage: ${head} <n|title>` };
      return { type: "tap", choice: rest };
    case "/paid": {
      const [ref, ...more] = words;
      const status = more.find((word) => !/^\d+$/.test(word))?.toUpperCase() ?? "SUCCESSFUL";
      const amount = more.find((word) => /^\d+$/.test(word));
      if (!ref || !PAYMENT_STATUSES.includes(status as PaymentStatus) || more.length > 2) {
        return {
          type: "error",
          message: `usage: /paid <momo_ref> [${PAYMENT_STATUSES.join("|")}] [amount]`,
        };
      }
      return {
        type: "paid",
        ref: ref.toUpperCase(),
        status: status as PaymentStatus,
        ...(amount ? { amount: Number(amount) } : {}),
      };
    }
    case "/sms":
      if (!rest) return { type: "error", message: "usage: /sms <the SMS text>" };
      return { type: "sms", text: rest };
    case "/reply":
      if (!rest) return { type: "error", message: "usage: /reply <text>" };
      return { type: "text", text: rest, reply: true };
    case "/image":
    case "/doc": {
      const [path, ...caption] = words;
      if (!path) return { type: "error", message: `usage: ${head} <path> [caption]` };
      return {
        type: "media",
        mediaType: head.toLowerCase() === "/doc" ? "document" : "image",
        path,
        ...(caption.length ? { caption: caption.join(" ") } : {}),
      };
    }
    case "/wait": {
      const seconds = Number(rest);
      if (!rest || !Number.isFinite(seconds) || seconds < 0 || seconds > 600) {
        return { type: "error", message: "usage: /wait <seconds> (0 to 600)" };
      }
      return { type: "wait", seconds };
    }
    case "/clock": {
      const at = clockTime(rest);
      if (!at) {
        return {
          type: "error",
          message: "usage: /clock <YYYY-MM-DD HH:MM> (Kigali time) or an ISO time with its offset",
        };
      }
      return { type: "clock", at };
    }
    case "/help":
      return { type: "help" };
    case "/quit":
    case "/exit":
      return { type: "quit" };
    default:
      return { type: "error", message: `unknown command ${head}: try /help` };
  }
}

const MIME_TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  pdf: "application/pdf",
  txt: "text/plain",
  doc: "application/msword",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xls: "application/vnd.ms-excel",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
};

/**
 * The content type a phone would give a file, by its extension
 * (`application/octet-stream` when unknown: the platform then refuses it, as
 * WhatsApp's limits say).
 */
export function mimeTypeOf(path: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? "";
  return MIME_TYPES[extension] ?? "application/octet-stream";
}

type Json = Record<string, unknown>;

function object(value: unknown): Json {
  return value && typeof value === "object" && !Array.isArray(value) ? value as Json : {};
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(object) : [];
}

function str(value: unknown): string {
  return typeof value === "string" || typeof value === "number" ? String(value) : "";
}

/**
 * Quick-reply titles of approved templates (template name → language code →
 * titles by button index): a template message carries only each button's
 * index and payload, the phone shows the titles approved for that index.
 */
export type TemplateTitles = Record<string, Record<string, string[]>>;

let templateTitles: TemplateTitles = {};

/** Sets the approved templates' quick-reply titles the renderer shows. */
export function useTemplateTitles(titles: TemplateTitles): void {
  templateTitles = titles;
}

/** The buttons, list rows or template quick replies of a message, in order. */
export function choicesOf(body: Json): Choice[] {
  const interactive = object(body.interactive);
  const action = object(interactive.action);
  if (interactive.type === "button") {
    return list(action.buttons).map((button) => {
      const reply = object(button.reply);
      return { kind: "button", id: str(reply.id), title: str(reply.title) };
    });
  }
  if (interactive.type === "list") {
    return list(action.sections).flatMap((section) =>
      list(section.rows).map((row) => ({
        kind: "row" as const,
        id: str(row.id),
        title: str(row.title),
        ...(row.description ? { description: str(row.description) } : {}),
      }))
    );
  }
  if (body.type === "template") {
    const template = object(body.template);
    const approved = templateTitles[str(template.name)]?.[str(object(template.language).code)];
    return list(template.components)
      .filter((component) => component.type === "button" && component.sub_type === "quick_reply")
      .map((component, position) => {
        const payload = str(
          list(component.parameters)[0]?.payload ?? list(component.parameters)[0]?.text,
        );
        const index = typeof component.index === "number" ? component.index : position;
        // An unregistered template shows its payload: visibly not what a phone would show.
        return { kind: "quick", payload, text: approved?.[index] ?? payload };
      });
  }
  return [];
}

/** `[1] Yes  [2] No` */
function buttonLine(titles: string[]): string {
  return titles.map((title, index) => `[${index + 1}] ${title}`).join("  ");
}

/**
 * The visible text of a message, as lines (without the status line); a template as the tenant
 * `brand` that sent it has it approved.
 */
export function messageLines(
  body: Json,
  templates: TemplateBodies = {},
  brand?: string,
): string[] {
  if (body.type === "text") return str(object(body.text).body).split("\n");
  if (body.type === "image" || body.type === "document" || body.type === "video") {
    return mediaLines(body);
  }
  if (body.type === "template") {
    const template = object(body.template);
    const components = list(template.components);
    const params = components.filter((component) => component.type !== "button").flatMap(
      (component) => list(component.parameters).map((param) => str(param.text ?? param.payload)),
    );
    const quick = choicesOf(body);
    const header = components.find((component) => component.type === "header");
    const document = list(header?.parameters).find((param) => param.type === "document");
    const name = str(template.name);
    const language = str(object(template.language).code);
    // As the phone shows it: the approved body with its parameters, in its language.
    const shown = templateText(name, language, params, templates, brand);
    return [
      ...(document ? mediaLines({ type: "document", document: document.document }) : []),
      ...(shown !== null
        ? shown.split("\n")
        : [`template ${name} (${language}): ${params.join(", ")}`]),
      ...(quick.length
        ? [buttonLine(quick.map((choice) => (choice as { text: string }).text))]
        : []),
    ];
  }
  const interactive = object(body.interactive);
  const lines: string[] = [];
  const header = str(object(interactive.header).text);
  if (header) lines.push(`*${header}*`);
  lines.push(...str(object(interactive.body).text).split("\n"));
  const footer = str(object(interactive.footer).text);
  if (footer) lines.push(`_${footer}_`);
  if (interactive.type === "button") {
    lines.push(buttonLine(choicesOf(body).map((choice) => (choice as { title: string }).title)));
  } else if (interactive.type === "list") {
    const action = object(interactive.action);
    lines.push(`☰ ${str(action.button)}`);
    let n = 0;
    for (const section of list(action.sections)) {
      if (section.title) lines.push(`  ${str(section.title)}`);
      for (const row of list(section.rows)) {
        n++;
        const description = row.description ? ` — ${str(row.description)}` : "";
        lines.push(`  [${n}] ${str(row.title)}${description}`);
      }
    }
  } else if (!lines.length || lines.every((line) => !line)) {
    lines.push(JSON.stringify(body));
  }
  return lines;
}

/** A document or image: its file name (or "photo") and caption, then the link to open. */
function mediaLines(body: Json): string[] {
  const media = object(body[str(body.type)]);
  const icon = body.type === "document" ? "📄" : body.type === "video" ? "🎬" : "🖼";
  const fallbackName = { document: "document", video: "video" }[str(body.type)] ?? "photo";
  const name = str(media.filename) || fallbackName;
  const caption = str(media.caption);
  const where = media.link ? str(media.link) : `media id ${str(media.id)}`;
  return [`${icon} ${name}${caption ? ` — ${caption}` : ""}`, `   ${where}`];
}

/** Options for {@link renderRow}. */
export interface RenderOptions {
  /** Dim the status line with ANSI codes. @default false */
  color?: boolean;
  /** The approved template bodies a template is shown with; without one, the raw template. */
  templates?: TemplateBodies;
}

/**
 * An outbox row as the recipient sees it: a dimmed line with the time and
 * status, then the message.
 */
export function renderRow(row: OutboxRow, options: RenderOptions = {}): string {
  const time = row.created_at.slice(11, 19);
  const meta = `── ${row.sender ?? "EasyMO"} · ${time} · ${row.status}`;
  const dim = options.color ? `\x1b[2m${meta}\x1b[22m` : meta;
  return [dim, ...messageLines(row.body, options.templates, row.sender)].join("\n");
}
