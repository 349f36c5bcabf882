/**
 * What the OpenAPI and GraphQL generators produce: one operation of a
 * tenant's API as data (name, schemas, how to send it), before it is bound
 * to the tenant's base URL and credentials as a tool. Plans depend only on
 * the document and the tenant's choices, so they are cached by the
 * document's hash.
 *
 * @module
 */
import { createHash } from "node:crypto";
import type { z } from "zod";

/** Longest tool name (the registry's pattern allows 64). */
export const MAX_TOOL_NAME = 64;

/** Most bytes of a document (refused past it, before any parsing). */
export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;

/**
 * A document's size in UTF-8 bytes when it is over {@link MAX_DOCUMENT_BYTES},
 * else `null`. A text short enough that it cannot be over (a UTF-16 unit is
 * at most 3 bytes) is not encoded to count them.
 */
export function bytesOverLimit(text: string): number | null {
  if (text.length * 3 <= MAX_DOCUMENT_BYTES) return null;
  const bytes = new TextEncoder().encode(text).byteLength;
  return bytes > MAX_DOCUMENT_BYTES ? bytes : null;
}

/**
 * SHA-256 hex of a document's UTF-8 bytes (a lone surrogate as U+FFFD, as
 * `TextEncoder` writes it). The string is hashed as it is: encoding it first
 * for WebCrypto copied up to 5 MiB into a buffer per hash and took twice the
 * time (2.6 MB: ~5.5 against ~2.8 ms warm, ~39 against ~20 ms the first time).
 */
export function documentHash(text: string): Promise<string> {
  return Promise.resolve(sha256Hex(text));
}

/**
 * SHA-256 hex of a text's UTF-8 bytes, encoded a slice at a time into one
 * small buffer: handing node's hash the whole string made it encode the text
 * into a fresh buffer of up to three bytes a character, and a new instance's
 * first signature check of 0.74 MB of plans spent ~5.3 ms CPU on it, against
 * ~2.7 this way (the same digest: a surrogate pair is never cut).
 *
 * @param chunkChars UTF-16 units encoded at a time (tests use small ones to cut often).
 */
export function sha256Hex(text: string, chunkChars = 65_536): string {
  const hash = createHash("sha256");
  if (text.length <= chunkChars) return hash.update(text, "utf8").digest("hex");
  const buffer = new Uint8Array((chunkChars + 1) * 3);
  const encoder = new TextEncoder();
  for (let at = 0; at < text.length;) {
    let end = Math.min(at + chunkChars, text.length);
    // A pair cut in two would hash as two U+FFFD: its high half goes with the next slice, or
    // takes its low half along when it is the slice's only unit.
    const last = text.charCodeAt(end - 1);
    const next = text.charCodeAt(end);
    if (last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      end += end - 1 > at ? -1 : 1;
    }
    const { written } = encoder.encodeInto(text.slice(at, end), buffer);
    hash.update(buffer.subarray(0, written));
    at = end;
  }
  return hash.digest("hex");
}

/** Most tools one source may generate. */
export const MAX_OPERATIONS = 500;

/** Where an OpenAPI parameter goes. */
export interface HttpParameter {
  /** Its key in the tool's input. */
  key: string;
  /** Its name on the wire. */
  name: string;
  /** Where it goes (a cookie is sent in the `Cookie` header, beside a credential's). */
  in: "path" | "query" | "header" | "cookie";
  /**
   * A query list sent as one value, its items joined by this (`explode: false`: `,` for
   * `form`, ` ` for `spaceDelimited`, `|` for `pipeDelimited`); absent: one pair per item.
   */
  join?: string;
}

/** A security scheme an operation accepts, as the document declares it. */
export interface SecurityScheme {
  /** Its name in `components.securitySchemes`. */
  name: string;
  /** How the credential travels. */
  type: "apiKey" | "bearer" | "basic";
  /** For apiKey: where. */
  in?: "header" | "query" | "cookie";
  /** For apiKey: the header, query or cookie name. */
  paramName?: string;
}

/**
 * How an OpenAPI body travels: JSON, an HTML form's URL encoding,
 * `multipart/form-data` (text fields and files), a text body sent as given
 * (plain, CSV, XML), or a file's bytes as the whole body (octet-stream,
 * images, PDF…).
 */
export type BodyEncoding = "json" | "form" | "multipart" | "text" | "bytes";

/** How to send an OpenAPI operation. */
export interface HttpSend {
  /** Discriminant. */
  kind: "http";
  /** Upper-case method. */
  method: string;
  /** The path template, e.g. `/pets/{petId}`. */
  path: string;
  /** Parameters by input key. */
  parameters: HttpParameter[];
  /** The input key holding the JSON body, when the operation takes one. */
  bodyKey: string | null;
  /** How the body travels (JSON when absent). */
  bodyEncoding?: BodyEncoding;
  /**
   * The multipart fields that hold files (a file argument, or a list of
   * them), each with the media type sent when the argument names none.
   */
  files?: Record<string, string>;
  /** A `text` or `bytes` body's media type when the argument names none. */
  bodyMediaType?: string;
  /**
   * Accepted security: any one requirement of the list, each needing all its
   * schemes. Empty when the operation needs none.
   */
  security: SecurityScheme[][];
  /** Whether a call without any credential is allowed (`{}` in the requirements). */
  securityOptional: boolean;
}

/** How to send a GraphQL operation. */
export interface GraphqlSend {
  /** Discriminant. */
  kind: "graphql";
  /** The document: one operation with its variables and a bounded selection. */
  query: string;
  /** The root field whose value is the tool's data. */
  field: string;
}

/** One generated operation, ready to bind. */
/** An exposed operation left out of a registration because its schema cannot be mapped. */
export interface SkippedOperation {
  /** The operation's id (or "method path"). */
  operation: string;
  /** JSON pointer of the part that cannot be mapped. */
  path: string;
  /** Why. */
  reason: string;
}

/**
 * The plans made from a document, with the exposed operations left out:
 * an operation whose schema no value can satisfy (an `allOf` of a string and
 * an integer, say) is skipped when others map, and said in the registration's
 * answer; when none maps, the document is refused.
 */
export type OperationPlans = OperationPlan[] & { skipped?: readonly SkippedOperation[] };

export interface OperationPlan {
  /** Tool name: `<source>_<operation>`, sanitised. */
  name: string;
  /** Where it came from in the document (operationId, or `query.<field>`). */
  origin: string;
  /** Human title. */
  title: string;
  /** The document's description, truncated: data for the model, never instructions to us. */
  description: string;
  /** Input schema (strict). */
  input: z.ZodObject;
  /** Output schema of `data` (lenient). */
  output: z.ZodType;
  /** A plausible input for the tool's example (checked when bound), when the generator made one. */
  example?: Record<string, unknown>;
  /**
   * Whether `example` was checked against `input` when the plan was stored,
   * so binding need not build the input's checks to check it again.
   */
  exampleChecked?: boolean;
  /** Reads only (GET/HEAD, GraphQL query). */
  readOnly: boolean;
  /** Irreversible: asks for confirmation (DELETE). */
  destructive: boolean;
  /** How to send it. */
  send: HttpSend | GraphqlSend;
}

/** Why a document cannot become tools: every problem, each with where it is. */
export class GenerationError extends Error {
  /** The problems, each `{path, message}` (a JSON pointer or the operation). */
  readonly issues: { path: string; message: string }[];

  /** Creates the error. */
  constructor(issues: { path: string; message: string }[]) {
    super(
      `Cannot generate tools: ${
        issues.slice(0, 5).map((issue) => `${issue.message} (${issue.path})`).join("; ")
      }${issues.length > 5 ? `; and ${issues.length - 5} more` : ""}`,
    );
    this.name = "GenerationError";
    this.issues = issues;
  }
}

/** `listPets` → `list_pets`, anything else → `_`, within the tool-name pattern. */
export function snakeName(text: string): string {
  return text
    // Accented letters keep their base letter (créerCommande → creer_commande).
    .normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** The tool name of an operation of a source, or `null` when nothing usable is left. */
export function toolName(source: string, operation: string): string | null {
  const tail = snakeName(operation);
  if (!tail) return null;
  const name = `${source}_${tail}`;
  if (name.length <= MAX_TOOL_NAME) return name;
  // Cut long names keep a hash of the whole id, so two ids sharing a long prefix stay apart.
  return `${name.slice(0, MAX_TOOL_NAME - 9).replace(/_+$/, "")}_${fnv1a(operation)}`;
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** A description for the model: the document's words, single-spaced and cut to `max`. */
export function cleanDescription(text: unknown, fallback: string, max = 600): string {
  if (typeof text !== "string") return fallback;
  // A long text (GitHub's run to kilobytes) is single-spaced only as far as the cut needs: when
  // its first part is still longer than `max` once single-spaced, the rest cannot change the result.
  const head = text.length > max * 2 ? single(text.slice(0, max * 2)) : undefined;
  const value = head !== undefined && head.length > max ? head : single(text);
  if (!value) return fallback;
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

function single(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
