/**
 * The platform's packs with room in the hard timeout of the tools whose work is
 * seconds of CPU (tesseract reading a photo, its worker started inside the
 * first call). Tests that check what a reading gives, not how fast the machine
 * reads, run on these: `ocr_extract`'s own 40 s expired on a CI machine at load
 * ~20 ("tool call failed transiently: TIMEOUT"). The timeout's behaviour is
 * the pipeline's tests'.
 *
 * @module
 */
import { PACKS } from "@shared/packs/mod.ts";
import type { Pack } from "@shared/registry/pack.ts";

const CPU_BOUND_TOOLS = new Set(["ocr_extract"]);
const ROOMY_TIMEOUT_MS = 300_000;

/** {@linkcode PACKS}, with a 5-minute hard timeout on the CPU-bound tools. */
export const ROOMY_PACKS: readonly Pack[] = PACKS.map((pack) => ({
  ...pack,
  tools: pack.tools.map((tool) =>
    CPU_BOUND_TOOLS.has(tool.name)
      ? { ...tool, timeoutMs: Math.max(tool.timeoutMs, ROOMY_TIMEOUT_MS) }
      : tool
  ),
}));
