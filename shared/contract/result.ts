/**
 * The tool contract: every call returns `{ ok: true, data }` or
 * `{ ok: false, error: { code, msg } }` with a user-safe message.
 *
 * @module
 */
import { defaultMessage, type ErrorCode } from "./errors.ts";

/** One invalid field named by a VALIDATION_ERROR. */
export interface FieldIssue {
  /** Dotted path of the field, e.g. `items.0.qty`; empty for the whole input. */
  path: string;
  /** What is wrong with it, safe to show the user. */
  message: string;
}

/** What a CONFIRMATION_REQUIRED error hands back so the caller can confirm. */
export interface ConfirmationRequest {
  /** Opaque token bound to the tool, caller, arguments and idempotency key. */
  token: string;
  /** Read-back of the critical parameters, to show the user. */
  summary: string;
  /** RFC 3339 time after which the token is refused. */
  expires_at: string;
}

/** The error half of the contract. */
export interface ToolError {
  /** One of the codes in {@link ERROR_CODES}. */
  code: ErrorCode;
  /** A user-safe message: never a stack, a SQL error or a secret. */
  msg: string;
  /** Invalid fields, for VALIDATION_ERROR. */
  fields?: FieldIssue[];
  /** For CONFIRMATION_REQUIRED: how to confirm. */
  confirmation?: ConfirmationRequest;
  /** Facts that help the caller recover, safe to show (e.g. `suggestions`: free slots). */
  details?: Record<string, unknown>;
}

/** A successful call. */
export interface ToolOk<T> {
  ok: true;
  data: T;
}

/** A failed call. */
export interface ToolFail {
  ok: false;
  error: ToolError;
}

/** What every tool call returns. */
export type ToolResult<T = unknown> = ToolOk<T> | ToolFail;

/** Builds a successful result. */
export function ok<T>(data: T): ToolOk<T> {
  return { ok: true, data };
}

/** Builds a failed result; the message defaults to the code's user-safe one. */
export function fail(
  code: ErrorCode,
  msg?: string,
  extra: Omit<ToolError, "code" | "msg"> = {},
): ToolFail {
  return { ok: false, error: { code, msg: msg ?? defaultMessage(code), ...extra } };
}

/**
 * Thrown by tool code to end a call with a given error code and a user-safe
 * message. Anything else thrown becomes INTERNAL_ERROR.
 */
export class ToolFailure extends Error {
  /** The contract error code. */
  readonly code: ErrorCode;
  /** User-safe message. */
  readonly userMessage: string;
  /** The invalid fields, for a VALIDATION_ERROR found past the schema (e.g. a tariff's rules). */
  readonly fields?: FieldIssue[];
  /** Facts that help the caller recover (e.g. the nearest free slots), passed on as `details`. */
  readonly details?: Record<string, unknown>;

  /** Creates a failure; `userMessage` defaults to the code's message. */
  constructor(
    code: ErrorCode,
    userMessage?: string,
    options: { fields?: FieldIssue[]; details?: Record<string, unknown> } = {},
  ) {
    super(userMessage ?? defaultMessage(code));
    this.name = "ToolFailure";
    this.code = code;
    this.userMessage = userMessage ?? defaultMessage(code);
    if (options.fields) this.fields = options.fields;
    if (options.details) this.details = options.details;
  }
}

/** What {@link validationFailure} reads of a failed schema parse (a `ZodError`). */
export interface SchemaIssues {
  issues: ReadonlyArray<
    {
      path: ReadonlyArray<PropertyKey>;
      message: string;
      /** zod's issue code; `unrecognized_keys` comes with the `keys` it found. */
      code?: string;
      keys?: ReadonlyArray<string>;
    }
  >;
}

/**
 * A failed parse as `VALIDATION_ERROR` with each field's dotted path: the one
 * mapping from zod issues to the contract, used by the pipeline and every
 * entry point.
 *
 * @param error The parse error.
 * @param msg The message. @default "Invalid request: check <the fields>"
 */
export function validationFailure(error: SchemaIssues, msg?: string): ToolFail {
  const named: string[] = [];
  const fields: FieldIssue[] = error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    // zod reports unknown keys at their object (the path callers read, kept); the message and
    // the summary name each key where it is, so a misspelt argument (`limitt`) is told as such.
    if (issue.code === "unrecognized_keys" && issue.keys?.length) {
      const keys = issue.keys.map((key) => path ? `${path}.${key}` : key);
      named.push(...keys);
      return {
        path,
        message: `Unknown field${keys.length > 1 ? "s" : ""} ${
          keys.join(", ")
        }: not in this input's schema`,
      };
    }
    named.push(path || "input");
    return { path, message: issue.message };
  });
  return fail("VALIDATION_ERROR", msg ?? `Invalid request: check ${named.join(", ")}`, {
    fields,
  });
}
