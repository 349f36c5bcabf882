/**
 * Writes `shared/capabilities/documents/dejavu_sans_font.ts`: DejaVu Sans (from the pinned
 * npm package `dejavu-fonts-ttf`) gzipped and base64-encoded as a module, so
 * the font reaches every deployed function's bundle (a deployed function
 * cannot read files that are not bundled; `import … with { type: "bytes" }`
 * still needs `--unstable-raw-imports` in Deno 2.9). The PDFs embed a subset
 * of it: every Latin letter with its accents (é è ç ô û, Kinyarwanda's and
 * French's apostrophe ’) renders and extracts as text.
 * `shared/capabilities/documents/font_test.ts` fails when the module differs from the
 * package's file.
 *
 * Run: `deno task gen:font`.
 *
 * @module
 */
import { encodeBase64 } from "@shared/runtime/base64.ts";

/** The font, as the npm package ships it. */
export const FONT_SOURCE_SPECIFIER = "dejavu-fonts-ttf/ttf/DejaVuSans.ttf";
/** The generated module. */
export const FONT_MODULE_URL = new URL(
  "../shared/capabilities/documents/dejavu_sans_font.ts",
  import.meta.url,
);

/** The font file's bytes, read from the package in node_modules. */
export async function readSourceFont(): Promise<Uint8Array> {
  const root = new URL("../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf", import.meta.url);
  return await Deno.readFile(root);
}

/** The module's text for the font's bytes. */
export async function renderFontModule(font: Uint8Array): Promise<string> {
  const gzipped = new Uint8Array(
    await new Response(
      new Blob([font as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
        new CompressionStream("gzip"),
      ),
    ).arrayBuffer(),
  );
  return `// deno-fmt-ignore-file
/**
 * GENERATED from ${FONT_SOURCE_SPECIFIER} (dejavu-fonts-ttf 2.37.3, Bitstream Vera / DejaVu
 * licence: free to embed and redistribute) by \`deno task gen:font\`; do not edit.
 *
 * @module
 */

/** DejaVu Sans, gzip then base64 (${font.byteLength} bytes unpacked). */
export const DEJAVU_SANS_GZIP_BASE64: string =
  "${encodeBase64(gzipped)}";
`;
}

if (import.meta.main) {
  await Deno.writeTextFile(FONT_MODULE_URL, await renderFontModule(await readSourceFont()));
  console.log(`wrote ${FONT_MODULE_URL.pathname}`);
}
