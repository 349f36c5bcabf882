import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";
import { searchTerms } from "./search_businesses.ts";

const CBD = { user_lat: -1.9441, user_lng: 30.0619 };
const KIMIHURURA = { user_lat: -1.9536, user_lng: 30.0925 };

Deno.test("searchTerms() keeps the words that matter, in any of our languages", () => {
  assert.deepEqual(searchTerms("I need a used HP laptop please", ["Dell"]), [
    "dell",
    "used",
    "hp",
    "laptop",
  ]);
  assert.deepEqual(searchTerms("Ndashaka paracetamol"), ["paracetamol"]);
  assert.deepEqual(searchTerms("Je cherche du café"), ["cafe"]);
  // French and Kinyarwanda words come with the stock's English word, which vendors' tags use.
  assert.deepEqual(searchTerms("chargeur de téléphone"), [
    "chargeur",
    "charger",
    "telephone",
    "phone",
  ]);
  assert.deepEqual(searchTerms("chargeur ya telefone").slice(0, 2), ["chargeur", "charger"]);
});

dbTest(
  "search_businesses_with_tags finds vendors tagged in English from French and Kinyarwanda words",
  async (db) => {
    const rt = await createTestRuntime(db);
    const REMERA = { user_lat: -1.956, user_lng: 30.112 };
    for (const query_text of ["chargeur de téléphone", "chaja ya telefone"]) {
      const result = await rt.callAs(USER.aline, "search_businesses_with_tags", {
        query_text,
        ...REMERA,
      });
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal(result.data[0]?.name, "Remera Phone Market", query_text);
    }
  },
);

dbTest("search_businesses_with_tags ranks by relevance and returns distance", async (db) => {
  const rt = await createTestRuntime(db);
  const result = await rt.callAs(USER.aline, "search_businesses_with_tags", {
    query_text: "used hp laptop",
    ...CBD,
  });
  assert.ok(result.ok, JSON.stringify(result));
  const names = result.data.map((b: { name: string }) => b.name);
  assert.deepEqual(names.slice(0, 2), ["Kigali Tech Hub", "Remera Phone Market"]);
  const [first, second] = result.data;
  assert.ok(first.relevance_score > second.relevance_score);
  assert.ok(first.distance_km < 0.1, `${first.distance_km}`);
  assert.ok(second.distance_km > 5 && second.distance_km < 7, `${second.distance_km}`);
  assert.equal(first.owner_whatsapp, "250788000007");
});

dbTest(
  "search_businesses_with_tags keeps to radius_km and matches stocked products",
  async (db) => {
    const rt = await createTestRuntime(db);
    const near = await rt.callAs(USER.aline, "search_businesses_with_tags", {
      query_text: "paracetamol",
      ...KIMIHURURA,
      radius_km: 1,
    });
    assert.deepEqual(near.data.map((b: { name: string }) => b.name), [
      "Pharmacie Conseil Kimihurura",
    ]);
    const wide = await rt.callAs(USER.aline, "search_businesses_with_tags", {
      query_text: "paracetamol",
      ...KIMIHURURA,
      radius_km: 5,
    });
    assert.deepEqual(wide.data.map((b: { name: string }) => b.name).sort(), [
      "Pharmacie Conseil Kimihurura",
      "Pharmacie Kacyiru",
    ]);
    // "brochette" is no tag of the café, but it sells beef brochettes (the grill has the tag).
    const byProduct = await rt.callAs(USER.aline, "search_businesses_with_tags", {
      query_text: "brochette",
    });
    assert.deepEqual(byProduct.data.map((b: { name: string }) => b.name).sort(), [
      "Café Nyamirambo",
      "Kimironko Brochettes & Grill",
    ]);
    const none = await rt.callAs(USER.aline, "search_businesses_with_tags", {
      query_text: "tractor",
    });
    assert.deepEqual(none.data, []);
  },
);

dbTest(
  "search_businesses_with_tags filters by category and prefers responsive vendors",
  async (db) => {
    const rt = await createTestRuntime(db);
    await db.query(
      "update public.businesses set response_rate = 1 where name = 'Pharmacie Kacyiru'",
    );
    await db.query(
      "update public.businesses set response_rate = 0 where name = 'Pharmacie Conseil Kimihurura'",
    );
    const result = await rt.callAs(USER.aline, "search_businesses_with_tags", {
      category: "pharmacy",
    });
    assert.deepEqual(result.data.map((b: { name: string }) => b.name), [
      "Pharmacie Kacyiru",
      "Pharmacie Conseil Kimihurura",
    ]);
    assert.equal(result.data[0].response_rate, 1);
  },
);

// Found on a fresh clone: a word of the request inside a product's name ("pas" in "Fresh passion
// juice", "do" in a pastry) sent a phone or laptop request to restaurants.
dbTest(
  "search_businesses_with_tags matches whole words, so no restaurant gets a phone request",
  async (db) => {
    const rt = await createTestRuntime(db);
    for (
      const query_text of [
        "Do you sell laptops? I need one under 400000",
        "Je cherche un téléphone Samsung pas cher",
      ]
    ) {
      const result = await rt.callAs(USER.aline, "search_businesses_with_tags", { query_text });
      assert.ok(result.ok, JSON.stringify(result));
      const found = result.data.map((b: { name: string; category: string }) => b.category);
      assert.ok(found.length > 0, query_text);
      assert.deepEqual(
        found.filter((category: string) => category !== "electronics"),
        [],
        query_text,
      );
    }
  },
);

dbTest("search_businesses_with_tags needs both coordinates or neither", async (db) => {
  const rt = await createTestRuntime(db);
  const result = await rt.callAs(USER.aline, "search_businesses_with_tags", {
    query_text: "laptop",
    user_lat: -1.94,
  });
  assert.equal(!result.ok && result.error.code, "VALIDATION_ERROR");
});

dbTest(
  "search_businesses_with_tags reads a tag's punctuation as text, never as a pattern",
  async (db) => {
    const rt = await createTestRuntime(db);
    // Tags reach the product-name match unsplit: "c++" or "(" once made it an invalid regular
    // expression and the call an INTERNAL_ERROR.
    for (const tags of [["c++"], ["("], ["usb-c"], ["a[b"], ["laptop\\"]]) {
      const result = await rt.callAs(USER.aline, "search_businesses_with_tags", { tags });
      assert.ok(result.ok, `${JSON.stringify(tags)}: ${JSON.stringify(result)}`);
    }
    const laptops = await rt.callAs(USER.aline, "search_businesses_with_tags", {
      tags: ["laptop."],
    });
    assert.ok(laptops.ok);
    // "." is a character to find, not any character: "laptop." names no product.
    assert.deepEqual(laptops.data, []);
  },
);
