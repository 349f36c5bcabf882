/**
 * What a refused Graph API media lookup means, and so what to do with the
 * message that carried the media id:
 *
 * | answer | kind | what happens |
 * | --- | --- | --- |
 * | 408, 429, 5xx; Meta's rate-limit and temporary codes | `transient` | retried with backoff |
 * | 401, 403; Meta's token and permission codes (190, 102, 10, 200–299) | `credentials` | our token is wrong: staff alerted, the customer told |
 * | any other 4xx (400 or 404: an unknown or expired media id) | `gone` | the customer's file: they are asked to send it again, the message is done |
 *
 * Meta answers an unknown or expired id with HTTP 400 and
 * `{"error":{"message":"Unsupported get request. Object with ID '…' does not exist…",
 * "type":"GraphMethodException","code":100,"error_subcode":33,"fbtrace_id":"…"}}`.
 * Network errors and timeouts never reach this module: they are thrown as
 * they are and retried.
 *
 * @module
 */
import { isRetryableCode } from "./error_codes.ts";

/** What a refused media lookup means for the message. */
export type GraphMediaFailureKind = "gone" | "credentials" | "transient";

/** Meta's error envelope, as far as it is read. */
export interface GraphErrorDetail {
  /** `error.code`. */
  code?: number;
  /** `error.error_subcode`. */
  subcode?: number;
  /** `error.type`, e.g. `GraphMethodException`, `OAuthException`. */
  type?: string;
  /** `error.message`, cut to 200 characters. */
  message?: string;
  /** `error.fbtrace_id`: what Meta's support asks for. */
  fbtraceId?: string;
}

// Graph API request limits that are not WhatsApp codes: app, user, page, hourly call limits.
const RATE_LIMIT_CODES = new Set([4, 17, 32, 613]);

/**
 * Which kind of failure an HTTP status and Meta error mean.
 *
 * @param status The HTTP status of the refused lookup.
 * @param detail Meta's error envelope, when the answer carried one.
 * @returns `transient` (retry), `credentials` (ours) or `gone` (the customer's file).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyGraphMediaFailure } from "./graph_media_error.ts";
 *
 * assert.equal(classifyGraphMediaFailure(400, { code: 100, subcode: 33 }), "gone");
 * assert.equal(classifyGraphMediaFailure(404), "gone");
 * assert.equal(classifyGraphMediaFailure(401, { code: 190 }), "credentials");
 * assert.equal(classifyGraphMediaFailure(503), "transient");
 * ```
 */
export function classifyGraphMediaFailure(
  status: number,
  detail: GraphErrorDetail = {},
): GraphMediaFailureKind {
  const { code } = detail;
  if (status === 408 || status === 429 || status >= 500) return "transient";
  if (code !== undefined && (RATE_LIMIT_CODES.has(code) || isRetryableCode(code))) {
    return "transient";
  }
  // Meta answers some token errors with 400: the code says whose fault it is.
  if (
    status === 401 || status === 403 ||
    (code !== undefined && (code === 190 || code === 102 || code === 10 ||
      (code >= 200 && code <= 299)))
  ) {
    return "credentials";
  }
  if (status >= 400 && status < 500) return "gone";
  return "transient";
}

/**
 * A media lookup (`GET /<media-id>`) the Graph API refused with an HTTP
 * status. `kind` says what the message that carried the id should get (see
 * the module's table). A refused download of the file's URL is not one: the
 * URL lives minutes, and a retry looks the id up afresh.
 */
export class GraphMediaError extends Error {
  /** What it means for the message. */
  readonly kind: GraphMediaFailureKind;
  /** The HTTP status. */
  readonly status: number;
  /** Meta's error, when the answer carried one. */
  readonly detail: GraphErrorDetail;

  /**
   * Creates the error, classifying it.
   *
   * @param status The HTTP status of the lookup.
   * @param detail Meta's error envelope.
   */
  constructor(status: number, detail: GraphErrorDetail = {}) {
    super(
      `Graph media lookup failed: HTTP ${status}` +
        (detail.code === undefined ? "" : ` (code ${detail.code}` +
          (detail.subcode === undefined ? "" : `, subcode ${detail.subcode}`) + ")"),
    );
    this.name = "GraphMediaError";
    this.status = status;
    this.detail = detail;
    this.kind = classifyGraphMediaFailure(status, detail);
  }

  /** Fields for a log line: status, Meta's code, subcode, type and trace id (no token, no URL). */
  logFields(): Record<string, unknown> {
    return {
      status: this.status,
      kind: this.kind,
      code: this.detail.code,
      subcode: this.detail.subcode,
      type: this.detail.type,
      fbtrace_id: this.detail.fbtraceId,
    };
  }
}

/**
 * Reads Meta's error envelope from a refused response's body (at most 16 KiB
 * of it); an empty detail when it is not one.
 *
 * @param response The refused response; its body is consumed.
 * @returns The fields of `error` that are present and well typed.
 */
export async function readGraphError(response: Response): Promise<GraphErrorDetail> {
  let text: string;
  try {
    text = (await response.text()).slice(0, 16_384);
  } catch {
    return {};
  }
  let error: Record<string, unknown> | undefined;
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (parsed && typeof parsed.error === "object" && parsed.error !== null) {
      error = parsed.error as Record<string, unknown>;
    }
  } catch {
    return {};
  }
  if (!error) return {};
  const detail: GraphErrorDetail = {};
  if (Number.isInteger(error.code)) detail.code = error.code as number;
  if (Number.isInteger(error.error_subcode)) detail.subcode = error.error_subcode as number;
  if (typeof error.type === "string") detail.type = error.type.slice(0, 100);
  if (typeof error.message === "string") detail.message = error.message.slice(0, 200);
  if (typeof error.fbtrace_id === "string") detail.fbtraceId = error.fbtrace_id.slice(0, 100);
  return detail;
}
