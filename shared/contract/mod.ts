/**
 * The tool contract: result shape, error codes and the validators tool
 * inputs are built from.
 *
 * @module
 */
export * from "./errors.ts";
export * from "./result.ts";
export * from "./validators.ts";
export * from "./uuid.ts";
