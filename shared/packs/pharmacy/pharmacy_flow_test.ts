// What the pharmacy searches for when the customer describes a symptom, one step at a time: the
// flow is called as the graph calls it, with a tool caller answering search_supabase as the
// pipeline would from two pharmacies' stock. (The whole flow runs on the seeded database in the
// pharmacy_* scenarios, pharmacy_symptom_no_advice_{en,rw,fr} among them.)
import assert from "node:assert/strict";
import { ok } from "@shared/contract/mod.ts";
import type { Language } from "@shared/contract/language.ts";
import type { OfflineStep, OfflineTurn } from "@shared/registry/pack.ts";
import { PHARMACY_TEXTS, pharmacyFlow } from "./pharmacy_flow.ts";

const KIMIHURURA = { id: "p1", name: "Pharmacie Conseil Kimihurura", area: "Kimihurura" };
const KACYIRU = { id: "p2", name: "Pharmacie Kacyiru", area: "Kacyiru" };
const STOCK = [{
  sku: "PARA-500",
  name: "Paracetamol 500mg",
  price: 500,
  unit: "pack",
  qty: 40,
  is_available: true,
  business_id: KIMIHURURA.id,
  requires_prescription: false,
}];

interface Search {
  table: string;
  filters?: Array<{ column: string; value: string }>;
}

/** One step on `text`; the stock searches made (the `ilike` words), in order. */
async function ask(
  text: string,
  language: Language,
): Promise<{ step: OfflineStep; sought: string[] }> {
  const sought: string[] = [];
  const turn: OfflineTurn = {
    agent: "pharmacy",
    language,
    input: { wamid: "wamid.t", text, phone: "+250788000001" },
    memory: {},
    menu: [],
    progress: () => Promise.resolve(),
  };
  const step = await pharmacyFlow(turn, (tool, args) => {
    if (tool !== "search_supabase") throw new Error(`unexpected call to ${tool}`);
    // The arguments are unknown to the caller's type: read as the steps send them.
    const search = args as Search;
    if (search.table === "businesses") return Promise.resolve(ok({ items: [KIMIHURURA, KACYIRU] }));
    // A word not in any stocked name is looked up again among the names per language (none
    // here): that second look is no new word sought.
    const named = search.filters?.find((filter) => filter.column === "names");
    if (named) return Promise.resolve(ok({ items: [] }));
    const word = search.filters?.find((filter) => filter.column === "name")?.value ?? "";
    sought.push(word);
    return Promise.resolve(ok({
      items: STOCK.filter((row) => row.name.toLowerCase().includes(word.toLowerCase())),
    }));
  });
  return { step, sought };
}

Deno.test("pharmacyFlow gives no advice on a symptom and searches none of its words, in en/rw/fr", async () => {
  for (
    const [language, text] of [
      ["en", "I have a headache, I need medicine"],
      ["rw", "ndwaye umutwe, nkeneye umuti"],
      ["fr", "j'ai de la fièvre, que prendre ?"],
      ["fr", "J'ai mal à la tête, il me faut un médicament"],
      ["en", "my stomach hurts, what should i take"],
    ] as const
  ) {
    const { step, sought } = await ask(text, language);
    assert.deepEqual(sought, [], text);
    const reply = step.replies?.[0];
    assert.ok(reply?.text?.startsWith(PHARMACY_TEXTS.noAdvice[language]), reply?.text);
    // The pharmacies, for a pharmacist to advise.
    assert.deepEqual(reply?.rows?.map((row) => row.id), ["venue:p1", "venue:p2"], text);
  }
});

Deno.test("pharmacyFlow searches a medicine named beside a symptom, and gives no advice when it is not stocked", async () => {
  const found = await ask("paracetamol for my headache", "en");
  assert.deepEqual(found.sought, ["paracetamol"]);
  assert.match(found.step.replies?.[0]?.text ?? "", /Paracetamol 500mg: from 500 RWF/);
  const missing = await ask("j'ai mal à la tête, avez-vous de l'aspirine ?", "fr");
  assert.deepEqual(missing.sought, ["aspirine"]);
  // The medicine asked for is said back as not found, then the no-advice line.
  const text = missing.step.replies?.[0]?.text ?? "";
  assert.match(text, /^Je n'ai pas trouvé « aspirine »/);
  assert.ok(text.includes(PHARMACY_TEXTS.noAdvice.fr), text);
});

Deno.test("pharmacyFlow never drops a condition a product is named for: it is sought and said back", async () => {
  for (
    const [language, text, said, notFound] of [
      ["en", "malaria test", ["test", "malaria"], /^I could not find “malaria test”/],
      ["rw", "ndashaka test y'inda", ["test", "inda"], /^Sinabonye “test inda”/],
      [
        "fr",
        "un test de paludisme svp",
        ["test", "paludisme"],
        /^Je n'ai pas trouvé « test paludisme »/,
      ],
    ] as const
  ) {
    const { step, sought } = await ask(text, language);
    assert.deepEqual(sought, said, text);
    const reply = step.replies?.[0]?.text ?? "";
    assert.match(reply, notFound);
    assert.ok(reply.includes(PHARMACY_TEXTS.noAdvice[language]), reply);
  }
  // A condition is matched as a whole word of a product's name.
  const coartem = await ask("coartem for malaria", "en");
  assert.deepEqual(coartem.sought, ["coartem", "malaria"]);
  assert.match(coartem.step.replies?.[0]?.text ?? "", /^I could not find “coartem malaria”/);
});

Deno.test("pharmacyFlow still says not found for a medicine it lacks when no symptom is said", async () => {
  const { step, sought } = await ask("do you have aspirin?", "en");
  assert.deepEqual(sought, ["aspirin"]);
  assert.match(step.replies?.[0]?.text ?? "", /^I could not find “aspirin”/);
});
