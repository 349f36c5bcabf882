/**
 * A fake of Meta's Graph API messages endpoint on 127.0.0.1, for tests: it
 * checks the bearer token and the path `/v21.0/{phone-number-id}/messages`,
 * validates the request the way Meta does (roughly), records every request,
 * and answers with Meta's success and error wire formats. Failures can be
 * scripted per recipient, and per media id for media lookups (400/404 for an
 * unknown or expired id, 401/403, 429, 5xx, in Meta's error envelope).
 *
 * Test-only: not re-exported from `mod.ts`. Import it from this file.
 *
 * @module
 */
import { sha256Hex } from "@shared/runtime/canonical.ts";
import { createGraphAdapter } from "@shared/channels/whatsapp/graph_adapter.ts";
import type { WhatsAppTransport } from "@shared/channels/whatsapp/transport.ts";

/** One scripted answer for a recipient; an outcome without `code` or `raw` is a success. */
export interface FakeOutcome {
  /** Answer with Meta's error envelope carrying this `error.code`. */
  code?: number;
  /** The error message (Meta prefixes `(#code)`); defaults to Meta's wording for known codes. */
  message?: string;
  /** `error.error_data.details`; defaults to Meta's wording for known codes. */
  details?: string;
  /** The HTTP status of an error reply. @default 400 */
  status?: number;
  /** A `Retry-After` header value, in seconds. */
  retryAfterSec?: number;
  /** Wait this long before answering (or until the client gives up). */
  delayMs?: number;
  /** Answer with this instead of a Graph envelope (a proxy's error page, say). */
  raw?: { status: number; body: string };
}

/**
 * A scripted answer to a media lookup (`GET /<version>/<media-id>`): Meta's
 * error envelope `{"error":{"message","type","code","error_subcode",
 * "fbtrace_id"}}` with this HTTP status. Code, subcode, type and message
 * default to what Meta answers with that status (see {@link MEDIA_LOOKUP_ERRORS}).
 */
export interface MediaLookupOutcome {
  /** The HTTP status. */
  status: number;
  /** `error.code`. */
  code?: number;
  /** `error.error_subcode`. */
  subcode?: number;
  /** `error.type`. */
  type?: string;
  /** `error.message`. */
  message?: string;
  /** A `Retry-After` header value, in seconds. */
  retryAfterSec?: number;
  /** Wait this long before answering (or until the client gives up). */
  delayMs?: number;
}

/**
 * What Meta answers a refused media lookup with, by HTTP status: an unknown or
 * expired id (400, 404: `GraphMethodException` 100/33), an expired token
 * (401: `OAuthException` 190/463), a token without the permission (403:
 * `OAuthException` 10), the app's request limit (429: 4), Meta's own trouble
 * (500: 1, 503: 2).
 */
export const MEDIA_LOOKUP_ERRORS: Record<
  number,
  { code: number; subcode?: number; type: string; message: (id: string) => string }
> = {
  400: {
    code: 100,
    subcode: 33,
    type: "GraphMethodException",
    message: (id) =>
      `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due ` +
      "to missing permissions, or does not support this operation. Please read the Graph API " +
      "documentation at https://developers.facebook.com/docs/graph-api",
  },
  404: {
    code: 100,
    subcode: 33,
    type: "GraphMethodException",
    message: (id) =>
      `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due ` +
      "to missing permissions, or does not support this operation.",
  },
  401: {
    code: 190,
    subcode: 463,
    type: "OAuthException",
    message: () =>
      "Error validating access token: Session has expired on Tuesday, 25-Nov-25 10:00:00 PST. " +
      "The current time is Tuesday, 25-Nov-25 11:02:13 PST.",
  },
  403: {
    code: 10,
    type: "OAuthException",
    message: () => "(#10) Application does not have permission for this action",
  },
  429: {
    code: 4,
    type: "OAuthException",
    message: () => "(#4) Application request limit reached",
  },
  500: { code: 1, type: "OAuthException", message: () => "An unknown error occurred" },
  503: { code: 2, type: "OAuthException", message: () => "Service temporarily unavailable" },
};

/** Options for {@link startFakeGraph}. */
export interface FakeGraphOptions {
  /** The token the fake accepts. @default "test-token" */
  token?: string;
  /** The phone-number id in the path. @default "106540352242922" */
  phoneNumberId?: string;
  /** The API version in the path. @default "v21.0" */
  version?: string;
  /** Scripted answers per recipient wa_id, used in order; then successes. */
  responses?: Record<string, FakeOutcome[]>;
}

/** A request the fake received. */
export interface FakeGraphRequest {
  /** The request path. */
  path: string;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: unknown;
  /** Whether the bearer token matched. */
  authorized: boolean;
  /** The HTTP status the fake answered. */
  status: number;
  /** Meta's error code in the answer, if any. */
  errorCode?: number;
  /** The wamid it made up, when it accepted the message. */
  wamid?: string;
}

/** A message the fake accepted. */
export interface FakeGraphMessage {
  /** The recipient. */
  to: string;
  /** The full request body. */
  body: Record<string, unknown>;
  /** The wamid answered. */
  wamid: string;
  /**
   * For an image or document sent by `link`: what the fake fetched from the
   * link, as Meta does when it sends (the bytes, or the HTTP status / network
   * error that would make Meta report the message failed with 131053).
   */
  fetched?: { status: number; mimeType: string | null; bytes: Uint8Array } | { error: string };
}

/** A running fake. */
export interface FakeGraph extends AsyncDisposable {
  /** The API root to give the adapter, e.g. `http://127.0.0.1:PORT/v21.0`. */
  baseUrl: string;
  /** The accepted token. */
  token: string;
  /** The phone-number id in the path. */
  phoneNumberId: string;
  /** Every request, in arrival order. */
  requests: FakeGraphRequest[];
  /** Every accepted message, in arrival order. */
  accepted: FakeGraphMessage[];
  /** Appends scripted answers for a recipient. */
  script(to: string, ...outcomes: FakeOutcome[]): void;
  /**
   * Appends scripted answers to lookups of a media id, used in order; then the
   * id answers as usual (its file when added, else Meta's unknown-id error).
   */
  scriptMedia(mediaId: string, ...outcomes: MediaLookupOutcome[]): void;
  /** How many times a media id was looked up (`GET /<version>/<id>`). */
  mediaLookups(mediaId: string): number;
  /**
   * Holds a file as an uploaded media id: `GET /<version>/<id>` answers Meta's
   * `{url, mime_type, sha256, file_size, id}` and `GET url` (with the token)
   * the bytes. `sha256` overrides the real digest (a corrupted download).
   */
  addMedia(
    bytes: Uint8Array,
    mimeType: string,
    options?: { sha256?: string; fileSize?: number },
  ): Promise<string>;
  /** The production Graph adapter, pointed at this fake with its token and number. */
  adapter(): WhatsAppTransport;
  /** Stops the server. */
  close(): Promise<void>;
}

/** Meta's wording for the codes the sender acts on: [message, details]. */
const META_ERRORS: Record<number, [string, string]> = {
  131000: ["Something went wrong", "Message failed to send due to an unknown error."],
  131026: [
    "Message undeliverable",
    "Unable to deliver message. Reasons can include: the recipient phone number is not a " +
    "WhatsApp phone number; the recipient has not accepted our new Terms of Service and " +
    "Privacy Policy; the recipient is using an old WhatsApp version.",
  ],
  131047: [
    "Re-engagement message",
    "Message failed to send because more than 24 hours have passed since the customer last " +
    "replied to this number.",
  ],
  131048: [
    "Spam rate limit hit",
    "Message failed to send because there are restrictions on how many messages can be sent " +
    "from this phone number.",
  ],
  131049: [
    "This message was not delivered to maintain healthy ecosystem engagement.",
    "In order to maintain a healthy ecosystem engagement, the message failed to be delivered.",
  ],
  131056: [
    "(Business Account, Consumer Account) pair rate limit hit",
    "Message failed to send because there were too many messages sent from this phone number " +
    "to the same phone number in a short period of time.",
  ],
  130429: ["Rate limit hit", "Cloud API message throughput has been reached."],
};

async function fetchLink(link: string): Promise<NonNullable<FakeGraphMessage["fetched"]>> {
  try {
    const response = await fetch(link, { signal: AbortSignal.timeout(10_000) });
    return {
      status: response.status,
      mimeType: response.headers.get("content-type"),
      bytes: new Uint8Array(await response.arrayBuffer()),
    };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function traceId(): string {
  return btoa(crypto.randomUUID()).replace(/[^A-Za-z0-9]/g, "").slice(0, 23);
}

function metaError(
  status: number,
  error: { message: string; type: string; code: number; details?: string; subcode?: number },
  headers: HeadersInit = {},
): Response {
  return Response.json({
    error: {
      message: error.message,
      type: error.type,
      code: error.code,
      ...(error.details === undefined
        ? {}
        : { error_data: { messaging_product: "whatsapp", details: error.details } }),
      ...(error.subcode === undefined ? {} : { error_subcode: error.subcode }),
      fbtrace_id: traceId(),
    },
  }, { status, headers });
}

function mediaLookupError(
  mediaId: string,
  outcome: MediaLookupOutcome,
  record: FakeGraphRequest,
): Response {
  const known = MEDIA_LOOKUP_ERRORS[outcome.status] ??
    { code: 1, type: "OAuthException", message: () => "An unknown error occurred" };
  const code = outcome.code ?? known.code;
  record.errorCode = code;
  return metaError(
    outcome.status,
    {
      message: outcome.message ?? known.message(mediaId),
      type: outcome.type ?? known.type,
      code,
      subcode: outcome.subcode ?? (outcome.code === undefined ? known.subcode : undefined),
    },
    outcome.retryAfterSec === undefined ? {} : { "retry-after": String(outcome.retryAfterSec) },
  );
}

function invalidParameter(details: string): Response {
  return metaError(400, {
    message: "(#100) Invalid parameter",
    type: "OAuthException",
    code: 100,
    details,
  });
}

// The body checks Meta makes before accepting a message (a subset).
function checkBody(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return "Request body must be a JSON object";
  const message = body as Record<string, unknown>;
  if (message.messaging_product !== "whatsapp") return "messaging_product must be whatsapp";
  if (message.recipient_type !== undefined && message.recipient_type !== "individual") {
    return "recipient_type must be individual";
  }
  if (typeof message.to !== "string" || !/^[0-9]{6,15}$/.test(message.to)) {
    return "to must be a phone number";
  }
  const type = message.type ?? "text";
  if (!["text", "interactive", "template", "image", "document"].includes(String(type))) {
    return `Unsupported message type ${JSON.stringify(type)}`;
  }
  const content = message[type as string];
  if (typeof content !== "object" || content === null) {
    return `Parameter ${type} is required for type ${type}`;
  }
  if (type === "image" || type === "document") {
    const media = content as Record<string, unknown>;
    if ((typeof media.link === "string") === (typeof media.id === "string")) {
      return `Parameter ${type} must have exactly one of link or id`;
    }
  }
  return undefined;
}

/**
 * Starts a fake Graph API on a free port of 127.0.0.1.
 *
 * @param options Token, phone-number id and scripted answers.
 * @returns The running fake; close it (or `await using` it) when done. Closing
 *   releases answers still being delayed.
 *
 * @example A scripted re-engagement error, then a success
 * ```ts ignore
 * await using graph = await startFakeGraph({
 *   responses: { "250788123456": [{ code: 131047 }] },
 * });
 * const transport = graph.adapter();
 * ```
 */
export function startFakeGraph(options: FakeGraphOptions = {}): Promise<FakeGraph> {
  const token = options.token ?? "test-token";
  const phoneNumberId = options.phoneNumberId ?? "106540352242922";
  const version = options.version ?? "v21.0";
  const scripts = new Map<string, FakeOutcome[]>();
  for (const [to, outcomes] of Object.entries(options.responses ?? {})) {
    scripts.set(to, [...outcomes]);
  }
  const requests: FakeGraphRequest[] = [];
  const accepted: FakeGraphMessage[] = [];
  const media = new Map<
    string,
    { bytes: Uint8Array; mimeType: string; sha256: string; fileSize: number }
  >();
  const mediaScripts = new Map<string, MediaLookupOutcome[]>();
  let counter = 0;
  // Delayed answers, released early when the fake closes.
  const waiting = new Map<ReturnType<typeof setTimeout>, () => void>();
  function delay(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(timer);
        resolve();
      }, ms);
      waiting.set(timer, resolve);
    });
  }

  async function handle(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    const text = await request.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const authorized = request.headers.get("authorization") === `Bearer ${token}`;
    const record: FakeGraphRequest = { path, body, authorized, status: 200 };
    requests.push(record);
    const response = await answer(request, path, body, authorized, record);
    record.status = response.status;
    return response;
  }

  async function answer(
    request: Request,
    path: string,
    body: unknown,
    authorized: boolean,
    record: FakeGraphRequest,
  ): Promise<Response> {
    if (!authorized) {
      record.errorCode = 190;
      return metaError(401, {
        message: "Invalid OAuth access token - Cannot parse access token",
        type: "OAuthException",
        code: 190,
      });
    }
    // Media, the two-step download: the id's JSON, then its short-lived URL's bytes.
    const mediaMatch = path.match(/^\/([^/]+)\/(\d+)$/);
    if (request.method === "GET" && mediaMatch && mediaMatch[1] === version) {
      const scripted = mediaScripts.get(mediaMatch[2])?.shift();
      if (scripted) {
        if (scripted.delayMs !== undefined) await delay(scripted.delayMs);
        return mediaLookupError(mediaMatch[2], scripted, record);
      }
      const file = media.get(mediaMatch[2]);
      if (!file) return mediaLookupError(mediaMatch[2], { status: 400 }, record);
      return Response.json({
        messaging_product: "whatsapp",
        url: `${new URL(request.url).origin}/whatsapp_business/attachments/?mid=${
          mediaMatch[2]
        }&ext=${Date.now()}&hash=${traceId()}`,
        mime_type: file.mimeType,
        sha256: file.sha256,
        file_size: file.fileSize,
        id: mediaMatch[2],
      });
    }
    if (request.method === "GET" && path === "/whatsapp_business/attachments/") {
      const file = media.get(new URL(request.url).searchParams.get("mid") ?? "");
      if (!file) return new Response("Not found", { status: 404 });
      return new Response(file.bytes.slice(), {
        headers: { "content-type": file.mimeType, "content-length": String(file.bytes.length) },
      });
    }
    const match = path.match(/^\/([^/]+)\/([^/]+)\/messages$/);
    if (request.method !== "POST" || !match || match[1] !== version || match[2] !== phoneNumberId) {
      record.errorCode = 100;
      return metaError(400, {
        message:
          `Unsupported ${request.method.toLowerCase()} request. Object with ID '${
            match?.[2] ?? path
          }' does not exist, cannot be loaded due to missing permissions, or does not support ` +
          "this operation.",
        type: "GraphMethodException",
        code: 100,
        subcode: 33,
      });
    }
    const problem = checkBody(body);
    if (problem !== undefined) {
      record.errorCode = 100;
      return invalidParameter(problem);
    }
    const message = body as Record<string, unknown>;
    const to = message.to as string;
    const sent = message[message.type as string] as Record<string, unknown> | undefined;
    if (typeof sent?.id === "string" && !media.has(sent.id)) {
      record.errorCode = 100;
      return invalidParameter(`Media ${sent.id} not found`);
    }
    const outcome = scripts.get(to)?.shift() ?? {};
    if (outcome.delayMs !== undefined) await delay(outcome.delayMs);
    if (outcome.raw) return new Response(outcome.raw.body, { status: outcome.raw.status });
    if (outcome.code !== undefined) {
      record.errorCode = outcome.code;
      const [message, details] = META_ERRORS[outcome.code] ?? ["Unknown error", undefined];
      return metaError(
        outcome.status ?? 400,
        {
          message: `(#${outcome.code}) ${outcome.message ?? message}`,
          type: "OAuthException",
          code: outcome.code,
          details: outcome.details ?? details,
        },
        outcome.retryAfterSec === undefined ? {} : { "retry-after": String(outcome.retryAfterSec) },
      );
    }
    counter += 1;
    const wamid = `wamid.HBgM${btoa(`${to}:${counter}:${crypto.randomUUID()}`)}`;
    record.wamid = wamid;
    const accepting: FakeGraphMessage = { to, body: message, wamid };
    // Meta fetches a link itself when it sends the message.
    if (typeof sent?.link === "string") accepting.fetched = await fetchLink(sent.link);
    accepted.push(accepting);
    return Response.json({
      messaging_product: "whatsapp",
      contacts: [{ input: to, wa_id: to }],
      messages: [
        message.type === "template" ? { id: wamid, message_status: "accepted" } : {
          id: wamid,
        },
      ],
    });
  }

  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, handle);
  const { port } = server.addr as Deno.NetAddr;
  let closed: Promise<void> | undefined;
  const close = () => {
    for (const [timer, release] of waiting) {
      clearTimeout(timer);
      release();
    }
    waiting.clear();
    return closed ??= server.shutdown();
  };
  const baseUrl = `http://127.0.0.1:${port}/${version}`;
  return Promise.resolve({
    baseUrl,
    token,
    phoneNumberId,
    adapter: () => createGraphAdapter({ token, phoneNumberId, baseUrl }),
    requests,
    accepted,
    script(to: string, ...outcomes: FakeOutcome[]) {
      scripts.set(to, [...(scripts.get(to) ?? []), ...outcomes]);
    },
    scriptMedia(mediaId: string, ...outcomes: MediaLookupOutcome[]) {
      mediaScripts.set(mediaId, [...(mediaScripts.get(mediaId) ?? []), ...outcomes]);
    },
    mediaLookups(mediaId: string) {
      return requests.filter((request) => request.path === `/${version}/${mediaId}`).length;
    },
    async addMedia(bytes, mimeType, mediaOptions = {}) {
      const sha256 = mediaOptions.sha256 ?? await sha256Hex(bytes);
      const id = String(1_000_000_000_000 + media.size + 1);
      media.set(id, { bytes, mimeType, sha256, fileSize: mediaOptions.fileSize ?? bytes.length });
      return id;
    },
    close,
    [Symbol.asyncDispose]: close,
  });
}
