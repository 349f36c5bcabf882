/**
 * The Unicode font our PDFs embed: DejaVu Sans, bundled as a generated module
 * (`dejavu_sans_font.ts`, from the pinned npm package) and unpacked once per
 * process.
 *
 * @module
 */
import { DEJAVU_SANS_GZIP_BASE64 } from "./dejavu_sans_font.ts";

let unpacked: Promise<Uint8Array> | undefined;

/** DejaVu Sans's TrueType bytes. */
export function dejaVuSans(): Promise<Uint8Array> {
  unpacked ??= (async () => {
    const packed = Uint8Array.from(atob(DEJAVU_SANS_GZIP_BASE64), (char) => char.charCodeAt(0));
    const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  })();
  return unpacked;
}
