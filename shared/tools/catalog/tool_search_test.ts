// Needs written before the ranking was tuned: each is what a person or an agent would ask
// for, in en/rw/fr, and the tools that meet it. A need passes when one of its tools is
// among the first three hits.
import assert from "node:assert/strict";
import { PACKS, platformTools } from "@shared/platform/platform.ts";
import { catalogServiceOf, catalogServices } from "@shared/platform/catalog.ts";
import { toolRow } from "./catalog_entries.ts";
import { searchDocument } from "./catalog_tools.ts";
import { createToolSearch, searchTerms } from "./tool_search.ts";

const NEEDS: Array<[string, string[]]> = [
  ["send a message to all customers", ["broadcast_schedule"]],
  ["kwishyura", ["momo_charge", "payment_status"]],
  ["payer ma commande avec mobile money", ["momo_charge"]],
  ["book a table for dinner tonight", ["reservation_book"]],
  ["réserver une table", ["reservation_book"]],
  ["I need a moto to town", ["ride_request", "trip_price_estimate"]],
  ["ndashaka moto", ["ride_request", "trip_price_estimate"]],
  ["how much is insurance for my car", ["price_insurance"]],
  ["assurance voiture prix", ["price_insurance"]],
  ["inzu yo gukodesha", ["property_search"]],
  ["appartement à louer", ["property_search"]],
  ["talk to a person", ["notify_staff"]],
  ["make a video ad", ["sora_generate_video"]],
  ["read the photo of my document", ["ocr_extract"]],
  ["find a shop that sells cement", ["search_businesses_with_tags"]],
  ["cancel my ride", ["ride_cancel"]],
  ["has my payment gone through", ["payment_status"]],
  ["stop the broadcast", ["broadcast_cancel"]],
];

async function catalogSearch() {
  const services = new Map(catalogServices(PACKS).map((service) => [service.name, service]));
  const serviceOf = catalogServiceOf(PACKS);
  const tools = platformTools().filter((tool) => !tool.internal);
  const documents = await Promise.all(
    tools.map(async (tool) => searchDocument(await toolRow(tool), serviceOf(tool, null))),
  );
  return createToolSearch(documents, {
    groups: Object.fromEntries(
      [...services].map(([name, service]) => [name, service.keywords ?? ""]),
    ),
  });
}

Deno.test("tool search meets needs in en, rw and fr among its first three hits", async () => {
  const search = await catalogSearch();
  const missed: string[] = [];
  for (const [need, expected] of NEEDS) {
    const hits = search.search(need, 3).map((hit) => hit.name);
    if (!expected.some((name) => hits.includes(name))) {
      missed.push(`"${need}" → ${hits.join(", ")}`);
    }
  }
  assert.deepEqual(missed, []);
});

Deno.test("tool search finds nothing for words no tool has", async () => {
  const search = await catalogSearch();
  assert.deepEqual(search.search("zzyzx qwop", 5), []);
});

Deno.test("searchTerms() gives a word's en, fr and rw forms", () => {
  assert.ok(searchTerms("payments").includes("payment"));
  assert.ok(searchTerms("paiements").includes("pai"));
  assert.ok(searchTerms("ndashaka").includes("shaka"));
  assert.deepEqual(searchTerms("the and le de"), []);
});
