/**
 * The channel-neutral messaging port: what a pack says to a person of the
 * tenant (a customer, a vendor, a driver, a venue), in words and choices,
 * never in a channel's wire format. The WhatsApp channel implements it
 * (`shared/channels/whatsapp/messaging.ts`); the web chat and MCP fronts
 * will too. The composition root provides the implementation as the
 * {@link MESSAGING} service.
 *
 * A send joins the caller's transaction: the message is queued with the
 * decision to send it, or not at all.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";
import type { Queryable } from "@shared/db/types.ts";
import { type ServiceKey, serviceKey } from "@shared/registry/define_tool.ts";

/** A choice the person can tap; its `id` comes back as their answer. */
export interface Choice {
  /** Returned when tapped (at most 256 characters). */
  id: string;
  /** What the person sees (at most 20 characters). */
  title: string;
}

/** A row of a list. */
export interface ListChoice extends Choice {
  /** A second line under the title (at most 72 characters). */
  description?: string;
}

/** Plain text. */
export interface TextOut {
  kind: "text";
  /** The text (at most 4096 characters). */
  text: string;
  /** Show a preview of the first link. @default false */
  previewUrl?: boolean;
}

/** Text with one to three choices. */
export interface ButtonsOut {
  kind: "buttons";
  /** The question (at most 1024 characters). */
  text: string;
  /** One to three choices with unique ids. */
  choices: Choice[];
}

/** Text with a list of up to ten choices behind a button. */
export interface ListOut {
  kind: "list";
  /** The question (at most 4096 characters). */
  text: string;
  /** The label of the button that opens the list (at most 20 characters). */
  button: string;
  /** Sections of rows, ten rows in all at most. */
  sections: Array<{ title?: string; rows: ListChoice[] }>;
}

/** A file the person receives, by a link the channel fetches. */
export interface DocumentOut {
  kind: "document";
  /** A URL that outlives the channel's retries (a signed Storage URL). */
  link: string;
  /** The file name the person sees, e.g. `certificate.pdf`. */
  filename: string;
  /** Shown under the document (at most 1024 characters). */
  caption?: string;
  /** The file's type and size, checked against the channel's limits. */
  file: { mimeType: string; size: number };
}

/** A video the person receives, by a link the channel fetches. */
export interface VideoOut {
  kind: "video";
  /** A URL that outlives the channel's retries (a signed Storage URL). */
  link: string;
  /** Shown under the video (at most 1024 characters). */
  caption?: string;
  /** The file's type and size, checked against the channel's limits. */
  file: { mimeType: string; size: number };
}

/**
 * An approved template, for a person the channel may not reach freely (on
 * WhatsApp: outside their 24-hour window).
 */
export interface TemplateOut {
  kind: "template";
  /** The approved template's name (lowercase letters, digits, `_`). */
  name: string;
  /** The person's language; the channel maps it to its own code. */
  language: Language;
  /** The body's parameters, in order. */
  parameters?: string[];
  /** Ids answered by the template's quick replies, in order. */
  choiceIds?: string[];
  /** A document shown as the template's header. */
  document?: { link: string; filename: string };
}

/** What a pack can send. */
export type Outgoing = TextOut | ButtonsOut | ListOut | DocumentOut | VideoOut | TemplateOut;

/** What {@link MessagingPort.send} needs. */
export interface SendOptions {
  /** The tenant's org. */
  orgId: string;
  /** The person, by phone number (E.164 or digits). */
  to: string;
  /** What to say. */
  message: Outgoing;
  /**
   * One key, one message: sending again under the same key (a retried tool
   * call) sends nothing and answers the first message's id.
   */
  idempotencyKey: string;
  /** The conversation the message belongs to, when there is one. */
  conversationId?: string;
  /** What to send instead when the channel may not send `message` freely. */
  fallback?: TemplateOut;
  /**
   * A different message under a used key keeps the first, silently (a
   * resend whose wording changed meanwhile). @default false: it is an error.
   */
  firstStands?: boolean;
  /**
   * Never resend after a crash (a broadcast): a message whose process died
   * mid-send is reconciled from delivery reports or marked unconfirmed.
   * @default false
   */
  atMostOnce?: boolean;
}

/** Sends messages to people of a tenant, on whatever channel reaches them. */
export interface MessagingPort {
  /**
   * Queues `options.message` in the caller's transaction.
   *
   * @returns The queued message's id (the first one's, on a repeated key).
   * @throws {TypeError} When the message breaks the channel's limits.
   */
  send(tx: Queryable, options: SendOptions): Promise<string>;
}

/** The service under which the composition root provides the port. */
export const MESSAGING: ServiceKey<MessagingPort> = serviceKey<MessagingPort>("messaging.port");

/** Plain text. */
export function textOut(body: string, options: { previewUrl?: boolean } = {}): TextOut {
  return { kind: "text", text: body, ...options };
}

/** Text with one to three choices. */
export function buttonsOut(body: string, choices: Choice[]): ButtonsOut {
  return { kind: "buttons", text: body, choices };
}

/** A list of choices behind a button. */
export function listOut(input: Omit<ListOut, "kind">): ListOut {
  return { kind: "list", ...input };
}

/** A file by link. */
export function documentOut(input: Omit<DocumentOut, "kind">): DocumentOut {
  return { kind: "document", ...input };
}

/** A video by link. */
export function videoOut(input: Omit<VideoOut, "kind">): VideoOut {
  return { kind: "video", ...input };
}

/** An approved template. */
export function templateOut(input: Omit<TemplateOut, "kind">): TemplateOut {
  return { kind: "template", ...input };
}
