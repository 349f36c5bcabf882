import assert from "node:assert/strict";
import { z } from "zod";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import { defineTool } from "@shared/registry/define_tool.ts";
import { createOpenAIEmbedder } from "./tool_embeddings.ts";

// A tool one tenant brought at run time (as an OpenAPI import would register it).
const crmLookup = defineTool({
  name: "crm_lookup",
  title: "Look up a CRM contact",
  description: "Find a contact in Beaver's CRM by phone number.",
  category: "crm",
  input: z.object({ phone: z.string().describe("The contact's phone") }),
  output: z.object({ name: z.string() }),
  examples: [{ input: { phone: "+250788000001" } }],
  sideEffects: "none",
  usesDatabase: false,
  execute: () => Promise.resolve({ name: "Contact" }),
});

async function beaverRuntime(db: Parameters<typeof createTestRuntime>[0]) {
  const runtime = await createTestRuntime(db, { catalogSync: true });
  runtime.platform.register(crmLookup, { tenantId: ORG.beaver });
  await runtime.platform.catalog.settled();
  return runtime;
}

dbTest(
  "list_tools gives the index by service, without internal or other tenants' tools",
  async (db) => {
    const runtime = await beaverRuntime(db);
    try {
      const easymo = await runtime.callAs(USER.aline, "list_tools", {});
      assert.ok(easymo.ok, JSON.stringify(easymo));
      const index = (easymo.data as { index: string }).index;
      assert.match(index, /^## payments/m);
      assert.match(index, /^momo_charge: /m);
      assert.doesNotMatch(index, /crm_lookup/);
      // Service-only tools are never listed, nor the discovery tools themselves.
      assert.doesNotMatch(index, /payment_settle|list_tools/);

      const beaver = await runtime.callAs(USER.nina, "list_tools", {}, { org: ORG.beaver });
      assert.ok(beaver.ok, JSON.stringify(beaver));
      // Its own tool under its own service (the tool's category), beside the shared ones.
      assert.match(
        (beaver.data as { index: string }).index,
        /^## crm\ncrm_lookup: Find a contact/m,
      );

      const one = await runtime.callAs(USER.aline, "list_tools", { service: "payments" });
      assert.ok(one.ok);
      assert.match(
        (one.data as { index: string }).index,
        /^Capabilities: webhooks (yes|no), polling yes$/m,
      );

      const unknown = await runtime.callAs(USER.aline, "list_tools", { service: "nowhere" });
      assert.ok(!unknown.ok);
      assert.equal(unknown.error.code, "NOT_FOUND");
      assert.deepEqual(unknown.error.fields?.map((field: { path: string }) => field.path), [
        "service",
      ]);
    } finally {
      await runtime.platform.close();
    }
  },
);

dbTest("fetch_tool_schemas answers named tools only, and never another tenant's", async (db) => {
  const runtime = await beaverRuntime(db);
  try {
    const own = await runtime.callAs(
      USER.nina,
      "fetch_tool_schemas",
      { names: ["crm_lookup", "momo_charge"] },
      { org: ORG.beaver },
    );
    assert.ok(own.ok, JSON.stringify(own));
    const tools =
      (own.data as { tools: Array<{ name: string; parameters: { properties: object } }> })
        .tools;
    assert.deepEqual(tools.map((tool) => tool.name), ["crm_lookup", "momo_charge"]);
    assert.ok("phone" in tools[0].parameters.properties);

    const other = await runtime.callAs(USER.aline, "fetch_tool_schemas", {
      names: ["momo_charge", "crm_lookup"],
    });
    assert.ok(!other.ok);
    assert.equal(other.error.code, "NOT_FOUND");
    assert.match(other.error.msg, /crm_lookup/);
    assert.deepEqual(other.error.fields, [{
      path: "names.1",
      message: "unknown tool: crm_lookup",
    }]);

    // Beaver's policy disables the vendor search: not fetched, not listed, not found by search.
    const disabled = await runtime.callAs(USER.nina, "fetch_tool_schemas", {
      names: ["search_businesses_with_tags"],
    }, { org: ORG.beaver });
    assert.ok(!disabled.ok);
    assert.equal(disabled.error.code, "NOT_FOUND");
    const beaverIndex = await runtime.callAs(USER.nina, "list_tools", {}, { org: ORG.beaver });
    assert.ok(beaverIndex.ok);
    assert.doesNotMatch(
      (beaverIndex.data as { index: string }).index,
      /search_businesses_with_tags/,
    );
    const beaverSearch = await runtime.callAs(USER.nina, "search_tools", {
      query: "find vendors with tags",
      limit: 20,
    }, { org: ORG.beaver });
    assert.ok(beaverSearch.ok);
    assert.ok(
      !(beaverSearch.data as { results: Array<{ name: string }> }).results
        .some((hit) => hit.name === "search_businesses_with_tags"),
    );

    const internal = await runtime.callAs(USER.aline, "fetch_tool_schemas", {
      names: ["payment_settle"],
    });
    assert.ok(!internal.ok);
    assert.equal(internal.error.code, "NOT_FOUND");
  } finally {
    await runtime.platform.close();
  }
});

dbTest("search_tools ranks the caller's catalog only", async (db) => {
  const runtime = await beaverRuntime(db);
  try {
    const easymo = await runtime.callAs(USER.aline, "search_tools", { query: "kwishyura" });
    assert.ok(easymo.ok, JSON.stringify(easymo));
    const names = (easymo.data as { results: Array<{ name: string }> }).results.map((r) => r.name);
    assert.ok(names.includes("momo_charge"), names.join(", "));

    const crm = await runtime.callAs(USER.aline, "search_tools", { query: "CRM contact" });
    assert.ok(crm.ok);
    assert.ok(
      !(crm.data as { results: Array<{ name: string }> }).results.some((r) =>
        r.name === "crm_lookup"
      ),
    );
    const beaver = await runtime.callAs(USER.nina, "search_tools", { query: "CRM contact" }, {
      org: ORG.beaver,
    });
    assert.ok(beaver.ok);
    assert.equal(
      (beaver.data as { results: Array<{ name: string }> }).results[0]?.name,
      "crm_lookup",
    );
  } finally {
    await runtime.platform.close();
  }
});

/**
 * A loopback `/v1/embeddings` in OpenAI's wire format whose vectors count a few marker words:
 * "xyzzy" (a word no tool has) lands beside "Search rentals", property_search's title.
 */
function startEmbeddings(options: { fail?: boolean } = {}) {
  const requests: unknown[] = [];
  const markers = [["xyzzy", "search rentals"], ["kwishyura"], ["video"]];
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (request) => {
    const body = await request.json() as { input: string[]; model: string };
    requests.push(body);
    if (options.fail) {
      return Response.json({ error: { message: "overloaded", type: "server_error" } }, {
        status: 503,
      });
    }
    const data = body.input.map((text, index) => ({
      object: "embedding",
      index,
      embedding: [
        ...markers.map((words) => words.filter((word) => text.toLowerCase().includes(word)).length),
        0.01,
      ],
    }));
    return Response.json({
      object: "list",
      data,
      model: body.model,
      usage: { prompt_tokens: 1, total_tokens: 1 },
    });
  });
  return {
    baseURL: `http://127.0.0.1:${server.addr.port}/v1`,
    requests,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

dbTest("search_tools fuses meaning with keywords when embeddings answer", async (db) => {
  await using embeddings = startEmbeddings();
  const runtime = await createTestRuntime(db, {
    catalogSync: true,
    catalogEmbedder: createOpenAIEmbedder({ apiKey: "test", baseURL: embeddings.baseURL }),
  });
  try {
    await runtime.platform.catalog.settled();
    // No tool has the word: keywords alone find nothing, meaning finds the rentals search.
    const found = await runtime.callAs(USER.aline, "search_tools", { query: "xyzzy" });
    assert.ok(found.ok, JSON.stringify(found));
    const data = found.data as { mode: string; results: Array<{ name: string }> };
    assert.equal(data.mode, "hybrid");
    assert.equal(data.results[0]?.name, "property_search");
    assert.equal(embeddings.requests.length, 1);
    // The tools' vectors are kept: a second search embeds the query only.
    await runtime.callAs(USER.aline, "search_tools", { query: "video" });
    assert.deepEqual((embeddings.requests[1] as { input: string[] }).input, ["video"]);
  } finally {
    await runtime.platform.close();
  }
});

dbTest("search_tools answers by keywords when the embeddings provider fails", async (db) => {
  await using failing = startEmbeddings({ fail: true });
  const fallback = await createTestRuntime(db, {
    catalogSync: true,
    catalogEmbedder: createOpenAIEmbedder({ apiKey: "test", baseURL: failing.baseURL }),
  });
  try {
    await fallback.platform.catalog.settled();
    const keywords = await fallback.callAs(USER.aline, "search_tools", { query: "kwishyura" });
    assert.ok(keywords.ok, JSON.stringify(keywords));
    const data = keywords.data as { mode: string; results: Array<{ name: string }> };
    assert.equal(data.mode, "keywords");
    assert.ok(data.results.some((hit) => hit.name === "momo_charge"));
    assert.equal(failing.requests.length, 1);
  } finally {
    await fallback.platform.close();
  }
});

dbTest(
  "discovery never shows a customer a staff tool: not listed, not found, fetched as unknown",
  async (db) => {
    const runtime = await createTestRuntime(db, { catalogSync: true });
    try {
      await runtime.platform.catalog.settled();
      const staffOnly = runtime.platform.getToolsForTenant(ORG.easymo)
        .filter((tool) => tool.auth === "staff").map((tool) => tool.name);
      assert.ok(
        staffOnly.includes("broadcast_schedule") && staffOnly.includes("sora_generate_video"),
      );
      const found = async (user: string, query: string) => {
        const answer = await runtime.callAs(user, "search_tools", { query, limit: 20 });
        assert.ok(answer.ok, JSON.stringify(answer));
        return (answer.data as { results: Array<{ name: string }> }).results.map((r) => r.name);
      };
      for (const query of ["broadcast", "video", "automation", "register an API"]) {
        const customer = await found(USER.aline, query);
        assert.deepEqual(customer.filter((name) => staffOnly.includes(name)), [], query);
        // The same search by the org's staff finds them: the filter, not the query, hid them.
        const staff = await found(USER.jean, query);
        assert.ok(staff.some((name) => staffOnly.includes(name)), `${query}: ${staff.join(", ")}`);
      }

      const index = async (user: string) => {
        const answer = await runtime.callAs(user, "list_tools", {});
        assert.ok(answer.ok, JSON.stringify(answer));
        return (answer.data as { index: string }).index;
      };
      const customerIndex = await index(USER.aline);
      const staffIndex = await index(USER.jean);
      for (const name of staffOnly) {
        assert.doesNotMatch(customerIndex, new RegExp(`^${name}: `, "m"), name);
        assert.match(staffIndex, new RegExp(`^${name}: `, "m"), name);
      }

      // A staff tool's schema asked for by a customer reads as a name that does not exist.
      const fetchAs = (user: string, names: string[]) =>
        runtime.callAs(user, "fetch_tool_schemas", { names });
      const staffTool = await fetchAs(USER.aline, ["sora_generate_video"]);
      const madeUp = await fetchAs(USER.aline, ["sora_generate_vidoe"]);
      assert.ok(!staffTool.ok && !madeUp.ok);
      assert.deepEqual(
        JSON.parse(JSON.stringify(staffTool.error).replaceAll("sora_generate_video", "X")),
        JSON.parse(JSON.stringify(madeUp.error).replaceAll("sora_generate_vidoe", "X")),
      );
      assert.equal(staffTool.error.code, "NOT_FOUND");
      const asStaff = await fetchAs(USER.jean, ["sora_generate_video"]);
      assert.ok(asStaff.ok, JSON.stringify(asStaff));
      assert.equal(
        (asStaff.data as { tools: Array<{ auth: string }> }).tools[0].auth,
        "staff",
      );
    } finally {
      await runtime.platform.close();
    }
  },
);
