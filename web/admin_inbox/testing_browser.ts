/**
 * Moved to `testing/browser.ts` (test helpers live in testing/); kept for
 * `testing/documents/generate.ts` until it imports from there.
 *
 * @module
 */
export * from "../../testing/browser.ts";
