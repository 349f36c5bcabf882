/**
 * The Unicode font our PDFs embed: DejaVu Sans, bundled as a generated module
 * (`dejavu_sans_font.ts`, from the pinned npm package) and unpacked once per
 * process.
 *
 * @module
 */
import { decodeBase64 } from "@shared/runtime/base64.ts";
import { DEJAVU_SANS_GZIP_BASE64 } from "./dejavu_sans_font.ts";

let unpacked: Promise<Uint8Array> | undefined;

/** DejaVu Sans's TrueType bytes. */
export function dejaVuSans(): Promise<Uint8Array> {
  unpacked ??= (async () => {
    const packed = decodeBase64(DEJAVU_SANS_GZIP_BASE64);
    const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  })();
  return unpacked;
}
