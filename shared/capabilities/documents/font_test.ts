import assert from "node:assert/strict";
import { toHex } from "@shared/runtime/canonical.ts";
import { readSourceFont, renderFontModule } from "../../../scripts/gen_font_module.ts";
import { dejaVuSans } from "./font.ts";

async function sha256(bytes: Uint8Array): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource)));
}

Deno.test("the bundled font is the npm package's DejaVu Sans, byte for byte", async () => {
  const source = await readSourceFont();
  const bundled = await dejaVuSans();
  assert.equal(bundled.byteLength, source.byteLength);
  assert.equal(await sha256(bundled), await sha256(source));
  // The header the module states matches the file it was made from.
  assert.match(await renderFontModule(source), new RegExp(`${source.byteLength} bytes unpacked`));
});
