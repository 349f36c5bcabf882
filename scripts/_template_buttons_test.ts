import assert from "node:assert/strict";
import { APPROVED_TEMPLATE_BUTTONS } from "./_template_buttons.ts";

/** The buttons column of each template's table in docs/whatsapp_templates.md. */
async function documentedButtons(): Promise<Record<string, Record<string, string[]>>> {
  const text = await Deno.readTextFile(new URL("../docs/whatsapp_templates.md", import.meta.url));
  const documented: Record<string, Record<string, string[]>> = {};
  for (const section of text.split(/^## /m).slice(1)) {
    const name = /^`([a-z_]+)`/.exec(section)?.[1];
    const lines = section.split("\n").filter((line) => line.startsWith("|"));
    const header = lines[0]?.split("|").map((cell) => cell.trim());
    const column = header?.indexOf("buttons") ?? -1;
    if (!name || column < 0) continue;
    documented[name] = Object.fromEntries(
      lines.slice(2).map((line) => {
        const cells = line.split("|").map((cell) => cell.trim());
        const titles = [...cells[column].matchAll(/`([^`]+)`/g)].map((match) => match[1]);
        return [cells[1].replaceAll("`", ""), titles];
      }),
    );
  }
  return documented;
}

Deno.test("APPROVED_TEMPLATE_BUTTONS has every documented template's titles, in order", async () => {
  const documented = await documentedButtons();
  // The templates sent with quick replies, each in en, rw_RW and fr.
  assert.deepEqual(Object.keys(documented).sort(), [
    "property_viewing_booked",
    "property_viewing_moved",
    "ride_offer",
    "vendor_inquiry",
    "venue_new_order",
  ]);
  assert.deepEqual(APPROVED_TEMPLATE_BUTTONS, documented);
  assert.deepEqual(APPROVED_TEMPLATE_BUTTONS.ride_offer.rw_RW, ["Emera", "Anga"]);
});
