/**
 * The tool contract: result shape and error codes.
 *
 * @module
 */
export * from "./errors.ts";
export * from "./result.ts";
