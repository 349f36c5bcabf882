/**
 * Builders for WhatsApp Cloud API message bodies: the part of a
 * `POST /{phone-number-id}/messages` request after `messaging_product`,
 * `recipient_type` and `to`. Each builder checks Meta's limits with zod and
 * throws a `TypeError` naming the field, so a bad message fails where it is
 * written instead of at Meta.
 *
 * A built message is `{ kind, body }`: `kind` is the outbox's message kind,
 * `body` the Graph API JSON.
 *
 * @module
 */
import { z } from "zod";
import { ToolFailure } from "@shared/contract/mod.ts";
import { MEDIA_LIMITS } from "./media.ts";

/** Meta's limits on message fields, in characters unless noted. */
export const LIMITS = {
  /** A text message's body. */
  textBody: 4096,
  /** An interactive message's header text. */
  headerText: 60,
  /** An interactive message's footer text. */
  footerText: 60,
  /** A reply-buttons message's body. */
  buttonsBody: 1024,
  /** Reply buttons per message (count). */
  buttons: 3,
  /** A reply button's title. */
  buttonTitle: 20,
  /** A reply button's id. */
  buttonId: 256,
  /** A list message's body. */
  listBody: 4096,
  /** The label of the button that opens a list. */
  listButton: 20,
  /** Sections in a list (count). */
  listSections: 10,
  /** A list section's title. */
  sectionTitle: 24,
  /** Rows over all sections of a list (count). */
  listRows: 10,
  /** A list row's id. */
  rowId: 200,
  /** A list row's title. */
  rowTitle: 24,
  /** A list row's description. */
  rowDescription: 72,
  /** A template's name. */
  templateName: 512,
  /** An image's or document's caption. */
  caption: 1024,
  /** A document's file name as the recipient sees it (our cap; Meta names none). */
  filename: 240,
  /** A media link (our cap). */
  mediaLink: 2048,
} as const;

/** The kinds of outbound message the outbox stores. */
export type MessageKind =
  | "text"
  | "buttons"
  | "list"
  | "template"
  | "image"
  | "document"
  | "video";

/** The body of a text message. */
export interface TextBody {
  /** Message type. */
  type: "text";
  /** The text and whether links get a preview. */
  text: { body: string; preview_url: boolean };
}

/** A plain-text header or footer of an interactive message. */
export interface InteractiveText {
  /** The text. */
  text: string;
}

/** The body of a reply-buttons message. */
export interface ButtonsBody {
  /** Message type. */
  type: "interactive";
  /** The interactive payload. */
  interactive: {
    type: "button";
    header?: { type: "text"; text: string };
    body: InteractiveText;
    footer?: InteractiveText;
    action: { buttons: Array<{ type: "reply"; reply: { id: string; title: string } }> };
  };
}

/** One row of a list message. */
export interface ListRow {
  /** Returned in the user's `list_reply.id`. */
  id: string;
  /** Shown in the list, at most {@link LIMITS.rowTitle} characters. */
  title: string;
  /** Shown under the title, at most {@link LIMITS.rowDescription} characters. */
  description?: string;
}

/** One section of a list message. */
export interface ListSection {
  /** The section's heading; required by Meta when there are several sections. */
  title?: string;
  /** The section's rows. */
  rows: ListRow[];
}

/** The body of a list message. */
export interface ListBody {
  /** Message type. */
  type: "interactive";
  /** The interactive payload. */
  interactive: {
    type: "list";
    header?: { type: "text"; text: string };
    body: InteractiveText;
    footer?: InteractiveText;
    action: { button: string; sections: ListSection[] };
  };
}

/** A template component with its parameters, in Meta's format. */
export interface TemplateComponent {
  /** Which part of the template the parameters fill. */
  type: "header" | "body" | "button";
  /** For buttons: `quick_reply`, `url`, … */
  sub_type?: string;
  /** For buttons: the button's position, from 0. */
  index?: string | number;
  /** The values, e.g. `{ type: "text", text: "Aline" }` or `{ type: "payload", payload: "YES" }`. */
  parameters?: Array<{ type: string; [field: string]: unknown }>;
}

/** The body of a template message. */
export interface TemplateBody {
  /** Message type. */
  type: "template";
  /** The approved template to send. */
  template: {
    name: string;
    language: { code: string };
    components?: TemplateComponent[];
  };
}

/**
 * Where a media message's file comes from: a `link` Meta fetches when it
 * sends (a signed Storage URL), or the `id` of a file uploaded to the Graph
 * API (`POST /<phone-number-id>/media`).
 */
export type MediaSourceRef = { link: string; id?: never } | { id: string; link?: never };

/** The body of an image message. */
export interface ImageBody {
  /** Message type. */
  type: "image";
  /** The image and its caption. */
  image: MediaSourceRef & { caption?: string };
}

/** The body of a document message. */
export interface DocumentBody {
  /** Message type. */
  type: "document";
  /** The document, the file name shown and a caption. */
  document: MediaSourceRef & { filename?: string; caption?: string };
}

/** The body of a video message. */
export interface VideoBody {
  /** Message type. */
  type: "video";
  /** The video and its caption. */
  video: MediaSourceRef & { caption?: string };
}

/** Any outbound message body. */
export type MessageBody =
  | TextBody
  | ButtonsBody
  | ListBody
  | TemplateBody
  | ImageBody
  | DocumentBody
  | VideoBody;

/** A text message, as built by {@link textMessage}. */
export interface TextMessage {
  /** Outbox kind. */
  kind: "text";
  /** Graph API body. */
  body: TextBody;
}

/** A reply-buttons message, as built by {@link buttonsMessage}. */
export interface ButtonsMessage {
  /** Outbox kind. */
  kind: "buttons";
  /** Graph API body. */
  body: ButtonsBody;
}

/** A list message, as built by {@link listMessage}. */
export interface ListMessage {
  /** Outbox kind. */
  kind: "list";
  /** Graph API body. */
  body: ListBody;
}

/** A template message, as built by {@link templateMessage}. */
export interface TemplateMessage {
  /** Outbox kind. */
  kind: "template";
  /** Graph API body. */
  body: TemplateBody;
}

/** An image message, as built by {@link imageMessage}. */
export interface ImageMessage {
  /** Outbox kind. */
  kind: "image";
  /** Graph API body. */
  body: ImageBody;
}

/** A document message, as built by {@link documentMessage}. */
export interface DocumentMessage {
  /** Outbox kind. */
  kind: "document";
  /** Graph API body. */
  body: DocumentBody;
}

/** A video message, as built by {@link videoMessage}. */
export interface VideoMessage {
  /** Outbox kind. */
  kind: "video";
  /** Graph API body. */
  body: VideoBody;
}

/** Any built message: what {@link enqueueMessage} accepts. */
export type WhatsAppMessage =
  | TextMessage
  | ButtonsMessage
  | ListMessage
  | TemplateMessage
  | ImageMessage
  | DocumentMessage
  | VideoMessage;

// --- Schemas of the Graph API bodies -------------------------------------

function text(max: number) {
  return z.string().min(1).max(max).regex(/\S/, { error: "must not be blank" });
}

const header = z.strictObject({ type: z.literal("text"), text: text(LIMITS.headerText) });
const footer = z.strictObject({ text: text(LIMITS.footerText) });

function uniqueIds(ids: string[], ctx: z.RefinementCtx, path: PropertyKey[], what: string) {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) {
      ctx.addIssue({
        code: "custom",
        path,
        message: `must have unique ${what} ids: "${id}" repeats`,
      });
      return;
    }
    seen.add(id);
  }
}

const textBodySchema = z.strictObject({
  type: z.literal("text"),
  text: z.strictObject({ body: text(LIMITS.textBody), preview_url: z.boolean() }),
});

const buttonsBodySchema = z.strictObject({
  type: z.literal("interactive"),
  interactive: z.strictObject({
    type: z.literal("button"),
    header: header.optional(),
    body: z.strictObject({ text: text(LIMITS.buttonsBody) }),
    footer: footer.optional(),
    action: z.strictObject({
      buttons: z.array(z.strictObject({
        type: z.literal("reply"),
        reply: z.strictObject({ id: text(LIMITS.buttonId), title: text(LIMITS.buttonTitle) }),
      })).min(1).max(LIMITS.buttons),
    }).superRefine((action, ctx) =>
      uniqueIds(action.buttons.map((button) => button.reply.id), ctx, ["buttons"], "button")
    ),
  }),
});

const listBodySchema = z.strictObject({
  type: z.literal("interactive"),
  interactive: z.strictObject({
    type: z.literal("list"),
    header: header.optional(),
    body: z.strictObject({ text: text(LIMITS.listBody) }),
    footer: footer.optional(),
    action: z.strictObject({
      button: text(LIMITS.listButton),
      sections: z.array(z.strictObject({
        title: text(LIMITS.sectionTitle).optional(),
        rows: z.array(z.strictObject({
          id: text(LIMITS.rowId),
          title: text(LIMITS.rowTitle),
          description: z.string().max(LIMITS.rowDescription).optional(),
        })).min(1),
      })).min(1).max(LIMITS.listSections),
    }).superRefine((action, ctx) => {
      const rows = action.sections.flatMap((section) => section.rows);
      if (rows.length > LIMITS.listRows) {
        ctx.addIssue({
          code: "custom",
          path: ["sections"],
          message:
            `must have at most ${LIMITS.listRows} rows in all: current count is ${rows.length}`,
        });
      }
      if (action.sections.length > 1) {
        action.sections.forEach((section, index) => {
          if (section.title === undefined) {
            ctx.addIssue({
              code: "custom",
              path: ["sections", index, "title"],
              message: "is required when a list has several sections",
            });
          }
        });
      }
      uniqueIds(rows.map((row) => row.id), ctx, ["sections"], "row");
    }),
  }),
});

const templateBodySchema = z.strictObject({
  type: z.literal("template"),
  template: z.strictObject({
    name: z.string().max(LIMITS.templateName).regex(/^[a-z0-9_]+$/, {
      error: "must be lowercase letters, digits and underscores",
    }),
    language: z.strictObject({
      code: z.string().regex(/^[a-z]{2,3}(_[A-Za-z]{2,4})?$/, {
        error: 'must be a language code such as "en", "fr" or "en_US"',
      }),
    }),
    components: z.array(z.strictObject({
      type: z.enum(["header", "body", "button"]),
      sub_type: z.string().min(1).optional(),
      index: z.union([z.string(), z.number().int().nonnegative()]).optional(),
      parameters: z.array(z.looseObject({ type: z.string().min(1) })).optional(),
    })).optional(),
  }),
});

// A link Meta can fetch (http(s), no credentials in it) or an uploaded media id.
const mediaLink = z.url({ protocol: /^https?$/, error: "must be an http(s) URL" })
  .max(LIMITS.mediaLink)
  .refine((link) => {
    const url = new URL(link);
    return url.username === "" && url.password === "";
  }, { error: "must not carry a user name or password" });
const mediaId = z.string().regex(/^[A-Za-z0-9._-]{1,128}$/, {
  error: "must be a Graph API media id",
});

function oneSource(media: { link?: string; id?: string }, ctx: z.RefinementCtx) {
  if ((media.link === undefined) === (media.id === undefined)) {
    ctx.addIssue({ code: "custom", path: ["link"], message: "or id is required, not both" });
  }
}

const imageObjectSchema = z.strictObject({
  link: mediaLink.optional(),
  id: mediaId.optional(),
  caption: text(LIMITS.caption).optional(),
}).superRefine(oneSource);

const documentObjectSchema = z.strictObject({
  link: mediaLink.optional(),
  id: mediaId.optional(),
  // deno-lint-ignore no-control-regex
  filename: text(LIMITS.filename).regex(/^[^\/\\\u0000-\u001f]+$/, {
    error: "must be a file name without slashes or control characters",
  }).optional(),
  caption: text(LIMITS.caption).optional(),
}).superRefine(oneSource);

const imageBodySchema = z.strictObject({ type: z.literal("image"), image: imageObjectSchema });

const videoBodySchema = z.strictObject({ type: z.literal("video"), video: imageObjectSchema });

const documentBodySchema = z.strictObject({
  type: z.literal("document"),
  document: documentObjectSchema,
});

const BODY_SCHEMAS = {
  text: textBodySchema,
  buttons: buttonsBodySchema,
  list: listBodySchema,
  template: templateBodySchema,
  image: imageBodySchema,
  document: documentBodySchema,
  video: videoBodySchema,
} as const;

// --- Error messages --------------------------------------------------------

// Body paths rendered with the builders' argument names.
const FRIENDLY_PATHS: Array<[RegExp, string]> = [
  [/^text\.body/, "body"],
  [/^text\.preview_url/, "previewUrl"],
  [/^interactive\.(header|body|footer)\.text/, "$1"],
  [/^interactive\.action\.buttons(\[\d+\])\.reply\./, "buttons$1."],
  [/^interactive\.action\./, ""],
  [/^template\.language\.code/, "language"],
  [/^(image|document|video)\./, ""],
  [/^template\./, ""],
];

function renderPath(path: readonly PropertyKey[], friendly: boolean): string {
  let out = "";
  for (const key of path) {
    out += typeof key === "number" ? `[${key}]` : `${out ? "." : ""}${String(key)}`;
  }
  if (friendly) {
    for (const [pattern, replacement] of FRIENDLY_PATHS) {
      if (pattern.test(out)) {
        out = out.replace(pattern, replacement);
        break;
      }
    }
  }
  return out || "the message";
}

function describe(issue: z.core.$ZodIssue): string {
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case "too_big":
      if (issue.origin === "string") {
        return `must be at most ${issue.maximum} characters: current length is ${
          typeof input === "string" ? input.length : "unknown"
        }`;
      }
      if (issue.origin === "array") {
        return `must have at most ${issue.maximum} items: current count is ${
          Array.isArray(input) ? input.length : "unknown"
        }`;
      }
      break;
    case "too_small":
      if (issue.origin === "string") return "must not be empty";
      if (issue.origin === "array") return `must have at least ${issue.minimum} item(s)`;
      break;
    case "invalid_type":
      return `must be ${
        issue.expected === "object" ? "an" : "a"
      } ${issue.expected}: current value is ${
        input === undefined ? "missing" : JSON.stringify(input)
      }`;
    case "unrecognized_keys":
      return `has unknown field(s) ${issue.keys.join(", ")}`;
    case "invalid_value":
      return `must be ${issue.values.map((value) => JSON.stringify(value)).join(" or ")}`;
  }
  return issue.message;
}

function check<T>(
  schema: z.ZodType<T>,
  value: unknown,
  action: string,
  friendly: boolean,
): T {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new TypeError(`Cannot ${action} as ${renderPath(issue.path, friendly)} ${describe(issue)}`);
}

// --- Builders ----------------------------------------------------------------

/** Options for {@link textMessage}. */
export interface TextMessageOptions {
  /** Show a preview of the first link in the text. @default false */
  previewUrl?: boolean;
}

/**
 * Builds a text message.
 *
 * @param body The text, 1 to {@link LIMITS.textBody} characters.
 * @param options Link preview.
 * @returns The message, kind `"text"`.
 * @throws {TypeError} When the text is empty, blank or too long.
 *
 * @example A greeting
 * ```ts
 * import assert from "node:assert/strict";
 * import { textMessage } from "./messages.ts";
 *
 * const message = textMessage("Muraho! How can we help?");
 * assert.deepEqual(message.body, {
 *   type: "text",
 *   text: { body: "Muraho! How can we help?", preview_url: false },
 * });
 * ```
 */
export function textMessage(body: string, options: TextMessageOptions = {}): TextMessage {
  const built = { type: "text", text: { body, preview_url: options.previewUrl ?? false } };
  return { kind: "text", body: check(textBodySchema, built, "build a text message", true) };
}

/** A reply button. */
export interface ReplyButton {
  /** Returned in the user's `button_reply.id`, at most {@link LIMITS.buttonId} characters. */
  id: string;
  /** The label, at most {@link LIMITS.buttonTitle} characters. */
  title: string;
}

/** What {@link buttonsMessage} builds from. */
export interface ButtonsMessageInput {
  /** The message text, at most {@link LIMITS.buttonsBody} characters. */
  body: string;
  /** One to three buttons with unique ids. */
  buttons: ReplyButton[];
  /** A text header, at most {@link LIMITS.headerText} characters. */
  header?: string;
  /** A footer, at most {@link LIMITS.footerText} characters. */
  footer?: string;
}

/**
 * Builds a reply-buttons message (one to three quick replies).
 *
 * @param input Text, buttons, optional header and footer.
 * @returns The message, kind `"buttons"`.
 * @throws {TypeError} When a field breaks Meta's limits.
 *
 * @example A yes/no question
 * ```ts
 * import assert from "node:assert/strict";
 * import { buttonsMessage } from "./messages.ts";
 *
 * const message = buttonsMessage({
 *   body: "Is the pharmacy open today?",
 *   buttons: [{ id: "open_yes", title: "Yes" }, { id: "open_no", title: "No" }],
 * });
 * assert.equal(message.body.interactive.action.buttons[1].reply.title, "No");
 * assert.throws(
 *   () => buttonsMessage({ body: "Pick", buttons: [{ id: "a", title: "A title far too long" + "!" }] }),
 *   TypeError,
 * );
 * ```
 */
export function buttonsMessage(input: ButtonsMessageInput): ButtonsMessage {
  const built = {
    type: "interactive",
    interactive: {
      type: "button",
      ...(input.header === undefined ? {} : { header: { type: "text", text: input.header } }),
      body: { text: input.body },
      ...(input.footer === undefined ? {} : { footer: { text: input.footer } }),
      action: {
        buttons: Array.isArray(input.buttons)
          ? input.buttons.map((button) => ({
            type: "reply",
            reply: { id: button?.id, title: button?.title },
          }))
          : input.buttons,
      },
    },
  };
  return {
    kind: "buttons",
    body: check(buttonsBodySchema, built, "build a buttons message", true) as ButtonsBody,
  };
}

/** What {@link listMessage} builds from. */
export interface ListMessageInput {
  /** The message text, at most {@link LIMITS.listBody} characters. */
  body: string;
  /** The label of the button that opens the list, at most {@link LIMITS.listButton} characters. */
  button: string;
  /** One to ten sections, with at most {@link LIMITS.listRows} rows in all and unique row ids. */
  sections: ListSection[];
  /** A text header, at most {@link LIMITS.headerText} characters. */
  header?: string;
  /** A footer, at most {@link LIMITS.footerText} characters. */
  footer?: string;
}

/**
 * Builds a list message: a button that opens up to ten choices in sections.
 *
 * @param input Text, button label, sections, optional header and footer.
 * @returns The message, kind `"list"`.
 * @throws {TypeError} When a field breaks Meta's limits.
 *
 * @example Pharmacies nearby
 * ```ts
 * import assert from "node:assert/strict";
 * import { listMessage } from "./messages.ts";
 *
 * const message = listMessage({
 *   body: "Pharmacies open near you",
 *   button: "Choose",
 *   sections: [{
 *     title: "Kicukiro",
 *     rows: [{ id: "ph_1", title: "Pharmacie Conseil", description: "0.8 km, open until 22:00" }],
 *   }],
 * });
 * assert.equal(message.body.interactive.action.sections[0].rows[0].id, "ph_1");
 * ```
 */
export function listMessage(input: ListMessageInput): ListMessage {
  const built = {
    type: "interactive",
    interactive: {
      type: "list",
      ...(input.header === undefined ? {} : { header: { type: "text", text: input.header } }),
      body: { text: input.body },
      ...(input.footer === undefined ? {} : { footer: { text: input.footer } }),
      action: { button: input.button, sections: input.sections },
    },
  };
  return {
    kind: "list",
    body: check(listBodySchema, built, "build a list message", true) as ListBody,
  };
}

/** What {@link templateMessage} builds from. */
export interface TemplateMessageInput {
  /** The approved template's name (lowercase letters, digits, `_`). */
  name: string;
  /** The template's language code, e.g. `"en"`, `"fr"`, `"en_US"`. */
  language: string;
  /** Parameters for the header, body and buttons, in Meta's format. */
  components?: TemplateComponent[];
}

/**
 * Builds a template message: the only kind Meta delivers outside the
 * 24-hour customer-service window. The template must be approved for the
 * business account; Meta checks that, not this builder.
 *
 * @param input Name, language and parameters.
 * @returns The message, kind `"template"`.
 * @throws {TypeError} When the name, language or components are malformed.
 *
 * @example A stock check with quick-reply buttons
 * ```ts
 * import assert from "node:assert/strict";
 * import { templateMessage } from "./messages.ts";
 *
 * const message = templateMessage({
 *   name: "stock_check",
 *   language: "en",
 *   components: [{ type: "body", parameters: [{ type: "text", text: "Amoxicillin" }] }],
 * });
 * assert.deepEqual(message.body.template.language, { code: "en" });
 * ```
 */
export function templateMessage(input: TemplateMessageInput): TemplateMessage {
  const built = {
    type: "template",
    template: {
      name: input.name,
      language: { code: input.language },
      ...(input.components === undefined ? {} : { components: input.components }),
    },
  };
  return {
    kind: "template",
    body: check(templateBodySchema, built, "build a template message", true) as TemplateBody,
  };
}

/**
 * A template whose one body parameter carries a free-form message, for the
 * approved templates that relay what was said (`staff_followup`,
 * `payment_update`): whitespace collapsed to single spaces (a parameter may
 * hold no new line, tab or run of spaces) and cut at 1000 characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { relayTemplate } from "./messages.ts";
 *
 * const message = relayTemplate({ name: "payment_update", language: "fr", text: "Reçu.\nMerci" });
 * assert.deepEqual(message.body.template.components, [
 *   { type: "body", parameters: [{ type: "text", text: "Reçu. Merci" }] },
 * ]);
 * ```
 */
export function relayTemplate(
  input: { name: string; language: "en" | "rw" | "fr"; text: string },
): TemplateMessage {
  return templateMessage({
    name: input.name,
    language: templateLanguage(input.language),
    components: [{
      type: "body",
      parameters: [{ type: "text", text: input.text.replace(/\s+/g, " ").trim().slice(0, 1000) }],
    }],
  });
}

/**
 * What WhatsApp carries outbound (Cloud API "supported media types"): images
 * JPEG or PNG up to 5 MB, documents (PDF, text, Office) up to 100 MB, videos
 * MP4 or 3GPP up to 16 MB.
 */
export const OUTBOUND_MEDIA_LIMITS: Readonly<
  Record<"image" | "document" | "video", { types: readonly string[]; maxBytes: number }>
> = {
  image: { types: MEDIA_LIMITS.image.types, maxBytes: 5 * 1024 * 1024 },
  document: { types: MEDIA_LIMITS.document.types, maxBytes: 100 * 1024 * 1024 },
  video: { types: MEDIA_LIMITS.video.types, maxBytes: 16 * 1024 * 1024 },
};

/** The file a media message sends, as stored: its content type and size. */
export interface OutboundFile {
  /** The content type, e.g. `application/pdf`. */
  mimeType: string;
  /** Bytes. */
  size: number;
}

/**
 * Refuses a file WhatsApp would not carry: `VALIDATION_ERROR` naming
 * `mimeType` or `size`, so a tool answers the caller instead of queueing a
 * message Meta fails later (131053).
 */
function checkOutboundFile(kind: "image" | "document" | "video", file: OutboundFile): void {
  const limits = OUTBOUND_MEDIA_LIMITS[kind];
  const mimeType = String(file?.mimeType ?? "").split(";")[0].trim().toLowerCase();
  if (!limits.types.includes(mimeType)) {
    const message = `must be one of ${limits.types.join(", ")}: current value is ${
      JSON.stringify(file?.mimeType)
    }`;
    throw new ToolFailure("VALIDATION_ERROR", `WhatsApp does not send this ${kind} type`, {
      fields: [{ path: "mimeType", message }],
    });
  }
  if (!Number.isInteger(file.size) || file.size < 1 || file.size > limits.maxBytes) {
    const message = `must be 1 to ${limits.maxBytes} bytes (WhatsApp's ${kind} limit): ` +
      `current value is ${file.size}`;
    throw new ToolFailure(
      "VALIDATION_ERROR",
      `This ${kind} is larger than WhatsApp allows (${limits.maxBytes / 1024 / 1024} MB)`,
      { fields: [{ path: "size", message }] },
    );
  }
}

function mediaRef(input: { link?: string; mediaId?: string }): Record<string, unknown> {
  return {
    ...(input.link === undefined ? {} : { link: input.link }),
    ...(input.mediaId === undefined ? {} : { id: input.mediaId }),
  };
}

/** What {@link imageMessage} builds from: a `link` or a `mediaId`, and the file's type and size. */
export interface ImageMessageInput {
  /** A URL Meta fetches when sending (a signed Storage URL that outlives the outbox's retries). */
  link?: string;
  /** Or an id from the Graph API's media upload. */
  mediaId?: string;
  /** Shown under the image, at most {@link LIMITS.caption} characters. */
  caption?: string;
  /** The file, checked against {@link OUTBOUND_MEDIA_LIMITS}. */
  file: OutboundFile;
}

/**
 * Builds an image message.
 *
 * @param input The image by link or media id, a caption, the file's type and size.
 * @returns The message, kind `"image"`.
 * @throws {TypeError} When the link, id or caption is malformed.
 * @throws {ToolFailure} `VALIDATION_ERROR` when the file is not JPEG/PNG or over 5 MB.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { imageMessage } from "./messages.ts";
 *
 * const message = imageMessage({
 *   link: "https://example.supabase.co/storage/v1/object/sign/media/a/b/c?token=t",
 *   caption: "Your vehicle registration",
 *   file: { mimeType: "image/jpeg", size: 120_000 },
 * });
 * assert.equal(message.body.image.caption, "Your vehicle registration");
 * ```
 */
export function imageMessage(input: ImageMessageInput): ImageMessage {
  const built = {
    type: "image",
    image: {
      ...mediaRef(input),
      ...(input.caption === undefined ? {} : { caption: input.caption }),
    },
  };
  const body = check(imageBodySchema, built, "build an image message", true) as ImageBody;
  checkOutboundFile("image", input.file);
  return { kind: "image", body };
}

/** What {@link videoMessage} builds from: a `link` or a `mediaId`, and the file's type and size. */
export interface VideoMessageInput {
  /** A URL Meta fetches when sending (a signed Storage URL that outlives the outbox's retries). */
  link?: string;
  /** Or an id from the Graph API's media upload. */
  mediaId?: string;
  /** Shown under the video, at most {@link LIMITS.caption} characters. */
  caption?: string;
  /** The file, checked against {@link OUTBOUND_MEDIA_LIMITS}. */
  file: OutboundFile;
}

/**
 * Builds a video message.
 *
 * @param input The video by link or media id, a caption, the file's type and size.
 * @returns The message, kind `"video"`.
 * @throws {TypeError} When the link, id or caption is malformed.
 * @throws {ToolFailure} `VALIDATION_ERROR` when the file is not MP4/3GPP or over 16 MB.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { videoMessage } from "./messages.ts";
 *
 * const message = videoMessage({
 *   link: "https://example.supabase.co/storage/v1/object/sign/media/o/videos/v.mp4?token=t",
 *   caption: "Your video is ready",
 *   file: { mimeType: "video/mp4", size: 2_400_000 },
 * });
 * assert.equal(message.body.video.caption, "Your video is ready");
 * ```
 */
export function videoMessage(input: VideoMessageInput): VideoMessage {
  const built = {
    type: "video",
    video: {
      ...mediaRef(input),
      ...(input.caption === undefined ? {} : { caption: input.caption }),
    },
  };
  const body = check(videoBodySchema, built, "build a video message", true) as VideoBody;
  checkOutboundFile("video", input.file);
  return { kind: "video", body };
}

/** What {@link documentMessage} builds from: a `link` or a `mediaId`, and the file's type and size. */
export interface DocumentMessageInput {
  /** A URL Meta fetches when sending (a signed Storage URL that outlives the outbox's retries). */
  link?: string;
  /** Or an id from the Graph API's media upload. */
  mediaId?: string;
  /** The file name the recipient sees, e.g. `certificate.pdf`. */
  filename: string;
  /** Shown under the document, at most {@link LIMITS.caption} characters. */
  caption?: string;
  /** The file, checked against {@link OUTBOUND_MEDIA_LIMITS}. */
  file: OutboundFile;
}

/**
 * Builds a document message. Outside the 24-hour window it needs a fallback
 * template whose header is a document ({@link templateDocumentHeader}).
 *
 * @param input The document by link or media id, its file name, a caption, its type and size.
 * @returns The message, kind `"document"`.
 * @throws {TypeError} When the link, id, file name or caption is malformed.
 * @throws {ToolFailure} `VALIDATION_ERROR` when the type is not one WhatsApp sends or it is over 100 MB.
 *
 * @example A certificate by a signed link
 * ```ts
 * import assert from "node:assert/strict";
 * import { documentMessage } from "./messages.ts";
 *
 * const message = documentMessage({
 *   link: "https://example.supabase.co/storage/v1/object/sign/documents/o/c.pdf?token=t",
 *   filename: "certificate.pdf",
 *   caption: "Your insurance certificate",
 *   file: { mimeType: "application/pdf", size: 48_213 },
 * });
 * assert.equal(message.body.document.filename, "certificate.pdf");
 * ```
 */
export function documentMessage(input: DocumentMessageInput): DocumentMessage {
  const built = {
    type: "document",
    document: {
      ...mediaRef(input),
      filename: input.filename,
      ...(input.caption === undefined ? {} : { caption: input.caption }),
    },
  };
  const body = check(documentBodySchema, built, "build a document message", true) as DocumentBody;
  checkOutboundFile("document", input.file);
  return { kind: "document", body };
}

/**
 * The code WhatsApp knows one of our languages by in an approved template
 * (Kinyarwanda is `rw_RW`; English and French are `en` and `fr`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { templateLanguage } from "./messages.ts";
 *
 * assert.equal(templateLanguage("rw"), "rw_RW");
 * ```
 */
export function templateLanguage(language: "en" | "rw" | "fr"): string {
  return language === "rw" ? "rw_RW" : language;
}

/**
 * A template's document header (a template approved with a DOCUMENT header):
 * the component to put first in {@link TemplateMessageInput.components}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { templateDocumentHeader, templateMessage } from "./messages.ts";
 *
 * const template = templateMessage({
 *   name: "document_ready",
 *   language: "en",
 *   components: [
 *     templateDocumentHeader({ link: "https://example.com/c.pdf", filename: "certificate.pdf" }),
 *     { type: "body", parameters: [{ type: "text", text: "Insurance certificate" }] },
 *   ],
 * });
 * assert.equal(template.body.template.components?.[0].type, "header");
 * ```
 */
export function templateDocumentHeader(
  input: { link?: string; mediaId?: string; filename: string },
): TemplateComponent {
  const document = check(
    documentObjectSchema,
    { ...mediaRef(input), filename: input.filename },
    "build a template document header",
    true,
  );
  return { type: "header", parameters: [{ type: "document", document }] };
}

/**
 * Checks a message that did not come straight from a builder (read back from
 * storage, built by hand): its kind and its body against Meta's limits.
 *
 * @param message The message to check.
 * @param action What the caller is doing, for the error: "Cannot <action> as …".
 * @returns The message, typed.
 * @throws {TypeError} When the kind is unknown or the body is malformed.
 *
 * @example Rejecting a hand-made body
 * ```ts
 * import assert from "node:assert/strict";
 * import { assertMessage, textMessage } from "./messages.ts";
 *
 * assertMessage(textMessage("ok"));
 * assert.throws(() => assertMessage({ kind: "text", body: { type: "text", text: { body: "" } } }), TypeError);
 * ```
 */
export function assertMessage(message: unknown, action = "send the message"): WhatsAppMessage {
  const kind = (message as { kind?: unknown } | null)?.kind;
  if (typeof kind !== "string" || !Object.hasOwn(BODY_SCHEMAS, kind)) {
    throw new TypeError(
      `Cannot ${action} as its kind must be text, buttons, list, template, image, document or video: current value is ${
        JSON.stringify(kind)
      }`,
    );
  }
  const schema = BODY_SCHEMAS[kind as MessageKind] as z.ZodType<MessageBody>;
  const body = check(schema, (message as { body?: unknown }).body, action, false);
  return { kind, body } as WhatsAppMessage;
}
