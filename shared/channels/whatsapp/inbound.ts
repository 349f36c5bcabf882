/**
 * Parses Meta's webhook envelope into inbound messages and statuses. Unknown
 * fields are ignored; a message of a type we do not handle is kept as
 * `unsupported` rather than dropped. What Postgres cannot store is repaired
 * and flagged, never a reason to refuse a delivery: NUL and lone UTF-16
 * surrogates become U+FFFD (the message as sent is kept as escaped JSON), and
 * a timestamp no clock could have produced becomes the receive time.
 *
 * @module
 */
import { z } from "zod";

const Message = z.looseObject({
  from: z.string().regex(/^\d{6,15}$/),
  id: z.string().min(1).max(256),
  timestamp: z.string().regex(/^\d+$/),
  type: z.string(),
  context: z.looseObject({ from: z.string().optional(), id: z.string().optional() }).optional(),
  text: z.looseObject({ body: z.string() }).optional(),
  interactive: z.looseObject({
    type: z.string(),
    button_reply: z.looseObject({ id: z.string(), title: z.string() }).optional(),
    list_reply: z.looseObject({
      id: z.string(),
      title: z.string(),
      description: z.string().optional(),
    }).optional(),
  }).optional(),
  button: z.looseObject({ payload: z.string().optional(), text: z.string().optional() }).optional(),
  location: z.looseObject({
    latitude: z.number(),
    longitude: z.number(),
    name: z.string().optional(),
    address: z.string().optional(),
  }).optional(),
});

const Status = z.looseObject({
  id: z.string().min(1).max(256),
  status: z.enum(["sent", "delivered", "read", "failed"]),
  timestamp: z.string().regex(/^\d+$/),
  recipient_id: z.string(),
  errors: z.array(z.looseObject({ code: z.number(), title: z.string().optional() })).optional(),
});

const Envelope = z.looseObject({
  object: z.literal("whatsapp_business_account"),
  entry: z.array(z.looseObject({
    id: z.string(),
    changes: z.array(z.looseObject({
      field: z.string(),
      value: z.looseObject({
        metadata: z.looseObject({ phone_number_id: z.string() }).optional(),
        contacts: z.array(z.looseObject({
          wa_id: z.string(),
          profile: z.looseObject({ name: z.string().optional() }).optional(),
        })).optional(),
        messages: z.array(z.unknown()).optional(),
        statuses: z.array(z.unknown()).optional(),
      }),
    })),
  })),
});

const MEDIA_TYPES = ["image", "document", "audio", "video", "sticker"] as const;

/** What an inbound message says, by kind. */
export type InboundContent =
  | { kind: "text"; text: string }
  | { kind: "button_reply"; id: string; title: string }
  | { kind: "list_reply"; id: string; title: string; description?: string }
  | { kind: "quick_reply"; payload: string; text: string }
  | { kind: "location"; latitude: number; longitude: number; name?: string; address?: string }
  | {
    kind: "media";
    mediaType: typeof MEDIA_TYPES[number];
    mediaId: string;
    mimeType?: string;
    /** Meta's sha256 of the file (hex), checked against the bytes downloaded. */
    sha256?: string;
    caption?: string;
    filename?: string;
    /** Where the bytes were saved once downloaded (`media.ts`); absent before. */
    stored?: StoredMedia;
  }
  | { kind: "unsupported"; type: string };

/** An inbound file saved to Storage. */
export interface StoredMedia {
  /** The bucket, `media`. */
  bucket: string;
  /** `<org>/<conversation>/<wamid>`. */
  path: string;
  /** The content type Meta gave. */
  mimeType: string;
  /** Bytes. */
  size: number;
  /** sha256 of the bytes (hex). */
  sha256: string;
}

/** One inbound message. */
export interface InboundMessage {
  /** Meta's message id (`wamid.…`). */
  wamid: string;
  /** The sender's wa_id (digits, no +). */
  from: string;
  /** Our business number's id. */
  phoneNumberId: string;
  /** The tenant the webhook stored it for (the number's owner); set once stored. */
  orgId?: string;
  /** The sender's WhatsApp profile name. */
  profileName?: string;
  /** When the user sent it. */
  sentAt: Date;
  /** The message this one answers (reply context). */
  contextWamid?: string;
  /** What it says. */
  content: InboundContent;
  /** Meta's message object as received, repaired (see `flags`). */
  raw: Record<string, unknown>;
  /** What had to be repaired; absent or empty when nothing. */
  flags?: InboundFlag[];
  /** The message as Meta sent it, as escaped JSON text, when it was repaired. */
  rawJson?: string;
}

/**
 * A repair made to a message: `text_sanitised` (NUL or lone surrogates
 * replaced by U+FFFD), `timestamp_replaced` (impossible timestamp, the
 * receive time used instead).
 */
export type InboundFlag = "text_sanitised" | "timestamp_replaced";

/** How far ahead of our clock a sender's timestamp may be before it is not believed. */
const MAX_CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;

/**
 * Replaces what Postgres text and jsonb cannot hold — NUL and lone UTF-16
 * surrogates — by U+FFFD.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sanitiseText } from "./inbound.ts";
 *
 * assert.equal(sanitiseText("a\u0000b\ud800"), "a\ufffdb\ufffd");
 * assert.equal(sanitiseText("ok 👍"), "ok 👍");
 * ```
 */
export function sanitiseText(text: string): string {
  return text.toWellFormed().replaceAll("\u0000", "\ufffd");
}

/** A JSON value with every string (keys too) passed through {@link sanitiseText}. */
export function sanitiseJson(value: unknown): unknown {
  if (typeof value === "string") return sanitiseText(value);
  if (Array.isArray(value)) return value.map(sanitiseJson);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [sanitiseText(key), sanitiseJson(item)]),
    );
  }
  return value;
}

function needsSanitising(value: unknown): boolean {
  if (typeof value === "string") return sanitiseText(value) !== value;
  if (Array.isArray(value)) return value.some(needsSanitising);
  if (value && typeof value === "object") {
    return Object.entries(value).some(([key, item]) =>
      needsSanitising(key) || needsSanitising(item)
    );
  }
  return false;
}

/**
 * The time a unix-seconds timestamp names, or `receivedAt` when it names no
 * time a sender could have written at (beyond Date's range, or more than a
 * day ahead of us).
 */
export function plausibleTime(seconds: string, receivedAt: Date): { at: Date; replaced: boolean } {
  const ms = Number(seconds) * 1000;
  if (Number.isSafeInteger(ms) && ms <= receivedAt.getTime() + MAX_CLOCK_SKEW_MS) {
    return { at: new Date(ms), replaced: false };
  }
  return { at: receivedAt, replaced: true };
}

/** Options for {@link parseDelivery}. */
export interface ParseOptions {
  /** When the delivery arrived: stands in for impossible timestamps. @default now */
  receivedAt?: Date;
}

/** A status update for one of our outbound messages. */
export interface InboundStatus {
  /** The outbound message's wamid. */
  wamid: string;
  /** sent, delivered, read or failed. */
  status: "sent" | "delivered" | "read" | "failed";
  /** When it happened. */
  at: Date;
  /** Meta's error codes, for failed. */
  errors?: Array<{ code: number; title?: string }>;
  /** The business number it is about. */
  phoneNumberId?: string;
  /** Who the message was to (`recipient_id`). */
  recipient?: string;
}

/** A parsed delivery. */
export interface ParsedDelivery {
  /** Messages (valid ones; invalid items are counted in `rejected`). */
  messages: InboundMessage[];
  /** Statuses. */
  statuses: InboundStatus[];
  /** Items that did not match Meta's format. */
  rejected: number;
}

function contentOf(message: z.output<typeof Message>): InboundContent {
  const raw = message as Record<string, unknown>;
  switch (message.type) {
    case "text":
      return message.text ? { kind: "text", text: message.text.body } : unsupported(message.type);
    case "interactive": {
      const reply = message.interactive;
      if (reply?.button_reply) return { kind: "button_reply", ...reply.button_reply };
      if (reply?.list_reply) return { kind: "list_reply", ...reply.list_reply };
      return unsupported("interactive");
    }
    case "button":
      return {
        kind: "quick_reply",
        payload: message.button?.payload ?? message.button?.text ?? "",
        text: message.button?.text ?? "",
      };
    case "location":
      return message.location ? { kind: "location", ...message.location } : unsupported("location");
    default: {
      const media = raw[message.type] as Record<string, unknown> | undefined;
      if (
        (MEDIA_TYPES as readonly string[]).includes(message.type) && typeof media?.id === "string"
      ) {
        return {
          kind: "media",
          mediaType: message.type as typeof MEDIA_TYPES[number],
          mediaId: media.id,
          mimeType: typeof media.mime_type === "string" ? media.mime_type : undefined,
          sha256: typeof media.sha256 === "string" ? media.sha256 : undefined,
          caption: typeof media.caption === "string" ? media.caption : undefined,
          filename: typeof media.filename === "string" ? media.filename : undefined,
        };
      }
      return unsupported(message.type);
    }
  }
}

function unsupported(type: string): InboundContent {
  return { kind: "unsupported", type };
}

/** Parses a delivery; null when it is not a WhatsApp Business envelope at all. */
export function parseDelivery(body: unknown, options: ParseOptions = {}): ParsedDelivery | null {
  const receivedAt = options.receivedAt ?? new Date();
  const envelope = Envelope.safeParse(body);
  if (!envelope.success) return null;
  const out: ParsedDelivery = { messages: [], statuses: [], rejected: 0 };
  for (const entry of envelope.data.entry) {
    for (const change of entry.changes) {
      if (change.field !== "messages") continue;
      const { value } = change;
      const names = new Map(
        (value.contacts ?? []).map((contact) => [
          contact.wa_id,
          contact.profile?.name === undefined ? undefined : sanitiseText(contact.profile.name),
        ]),
      );
      const phoneNumberId = sanitiseText(value.metadata?.phone_number_id ?? entry.id);
      for (const item of value.messages ?? []) {
        const dirty = needsSanitising(item);
        const message = Message.safeParse(dirty ? sanitiseJson(item) : item);
        if (!message.success) {
          out.rejected++;
          continue;
        }
        const sent = plausibleTime(message.data.timestamp, receivedAt);
        const flags: InboundFlag[] = [
          ...(dirty ? ["text_sanitised" as const] : []),
          ...(sent.replaced ? ["timestamp_replaced" as const] : []),
        ];
        out.messages.push({
          wamid: message.data.id,
          from: message.data.from,
          phoneNumberId,
          profileName: names.get(message.data.from),
          sentAt: sent.at,
          contextWamid: message.data.context?.id,
          content: contentOf(message.data),
          raw: message.data as Record<string, unknown>,
          ...(flags.length ? { flags, rawJson: JSON.stringify(item) } : {}),
        });
      }
      for (const item of value.statuses ?? []) {
        const status = Status.safeParse(sanitiseJson(item));
        if (!status.success) {
          out.rejected++;
          continue;
        }
        out.statuses.push({
          wamid: status.data.id,
          status: status.data.status,
          at: plausibleTime(status.data.timestamp, receivedAt).at,
          errors: status.data.errors?.map(({ code, title }) => ({ code, title })),
          phoneNumberId,
          recipient: status.data.recipient_id,
        });
      }
    }
  }
  return out;
}

/** The text of a message for handlers: typed text, a tapped title, a caption. */
export function messageText(content: InboundContent): string {
  switch (content.kind) {
    case "text":
      return content.text;
    case "button_reply":
    case "list_reply":
      return content.title;
    case "quick_reply":
      return content.text || content.payload;
    case "media":
      return content.caption ?? "";
    default:
      return "";
  }
}
