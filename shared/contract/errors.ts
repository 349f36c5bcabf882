/**
 * The one table of tool error codes: the tool catalog's ten codes plus the three the
 * pipeline and its conversations need (confirmation, timeout, and a confirmation the
 * user refused). Each carries its user-safe message and the HTTP status the `tools`
 * function answers with.
 *
 * @module
 */

/** Every error code a tool call can return. */
export const ERROR_CODES = {
  AUTH_ERROR: { message: "Access denied", status: 403 },
  NOT_FOUND: { message: "Item not found", status: 404 },
  VALIDATION_ERROR: { message: "Invalid request", status: 400 },
  RATE_LIMIT: { message: "Please try again later", status: 429 },
  SERVICE_UNAVAILABLE: { message: "Service temporarily unavailable", status: 503 },
  PAYMENT_FAILED: { message: "Payment unsuccessful", status: 402 },
  INSUFFICIENT_FUNDS: { message: "Insufficient funds", status: 402 },
  EXPIRED: { message: "Link expired", status: 410 },
  CONFLICT: { message: "Already exists", status: 409 },
  INTERNAL_ERROR: { message: "Something went wrong", status: 500 },
  CONFIRMATION_REQUIRED: { message: "Please confirm before we continue", status: 428 },
  TIMEOUT: { message: "That took too long, please try again", status: 504 },
  /**
   * The user answered a CONFIRMATION_REQUIRED call with Cancel: the call was
   * never made and nothing was done. A conversation records it as the call's
   * result so its flow can say so; no tool returns it.
   */
  CANCELLED: { message: "Cancelled: nothing was done", status: 409 },
} as const satisfies Record<string, { message: string; status: number }>;

/** A tool error code, e.g. `"VALIDATION_ERROR"`. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The user-safe message of an error code. */
export function defaultMessage(code: ErrorCode): string {
  return ERROR_CODES[code].message;
}

/** The HTTP status that carries an error code over HTTP. */
export function httpStatus(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}
