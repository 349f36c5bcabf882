import assert from "node:assert/strict";
import { z } from "zod";
import type { FlowMemory } from "@shared/registry/flow_memory.ts";
import type { OfflineFlow, Pack, PackAgent } from "@shared/registry/pack.ts";
import { agentRoster, tenantRoster } from "./roster.ts";

const reply = (text: string): OfflineFlow => () => Promise.resolve({ replies: [{ text }] });

function pack(id: string, agents: PackAgent[]): Pack {
  return { id, tools: [], agents, tables: {}, texts: {}, services: [] };
}

// The identity every agent declares; these tests are about routing, not identity.
const identity = {
  name: "A",
  description: "Test agent.",
  audience: "customers",
  tools: [],
} as const;

const desk: PackAgent = {
  ...identity,
  id: "desk",
  role: "front_desk",
  offlineFlow: reply("welcome"),
};
const person: PackAgent = {
  ...identity,
  id: "person",
  role: "handoff",
  asks: (text) => /\bperson\b/.test(text),
  menuTitle: { en: "Person", rw: "Umuntu", fr: "Personne" },
};
const shop: PackAgent = {
  ...identity,
  id: "shop",
  role: "fallback",
  asks: (text) => /\b(buy|person)\b/.test(text),
  menuTitle: { en: "Shop", rw: "Iduka", fr: "Boutique" },
  offlineFlow: reply("shop"),
};

Deno.test("agentRoster() reads roles, words in hand-off-first order, menu and flows", async () => {
  const roster = agentRoster([pack("a", [desk]), pack("b", [shop]), pack("c", [person])]);
  assert.deepEqual([roster.frontDesk, roster.fallback, roster.handoff], ["desk", "shop", "person"]);
  assert.equal(roster.topicOf("a person to buy from"), "person");
  assert.equal(roster.topicOf("buy"), "shop");
  assert.equal(roster.topicOf("hello"), null);
  assert.deepEqual(roster.menu.map((entry) => entry.id), ["shop", "person"]);
  const turn = { agent: "x", language: "en" as const, input: { wamid: "w", text: "" } };
  const ask = (agent: string) =>
    roster.flowOf(agent)(
      { ...turn, memory: {}, menu: [], progress: () => Promise.resolve() },
      () => Promise.reject(),
    );
  assert.deepEqual((await ask("shop")).replies, [{ text: "shop" }]);
  // An agent without a flow, or none at all, is answered by the front desk.
  assert.deepEqual((await ask("person")).replies, [{ text: "welcome" }]);
  assert.deepEqual((await ask("nobody")).replies, [{ text: "welcome" }]);
});

Deno.test("agentRoster() refuses a role held by none or by two, and a repeated agent", () => {
  assert.throws(
    () => agentRoster([pack("a", [desk, shop])]),
    (error: Error) => error instanceof TypeError && /role handoff/.test(error.message),
  );
  assert.throws(
    () =>
      agentRoster([pack("a", [desk, shop, person, { ...identity, id: "p2", role: "handoff" }])]),
    (error: Error) => error instanceof TypeError && /\[person, p2\]/.test(error.message),
  );
  assert.throws(
    () => agentRoster([pack("a", [desk, shop, person]), pack("b", [{ ...identity, id: "shop" }])]),
    (error: Error) => error instanceof TypeError && /"shop" is declared twice/.test(error.message),
  );
  assert.throws(
    () => agentRoster([pack("a", [{ ...identity, id: "desk", role: "front_desk" }, shop, person])]),
    (error: Error) => error instanceof TypeError && /no offline flow/.test(error.message),
  );
  assert.throws(
    () =>
      agentRoster([pack("a", [desk, shop, person, {
        ...identity,
        id: "books",
        intents: { agent: "shop", phrases: { en: ["a book"], rw: ["igitabo"], fr: ["un livre"] } },
      }])]),
    (error: Error) => /"books" declares intents for "shop"/.test(error.message),
  );
  assert.throws(
    () =>
      agentRoster([pack("a", [desk, shop, person, {
        ...identity,
        id: "reports",
        audience: "staff",
        asks: (text) => /report/.test(text),
      }])]),
    (error: Error) => /staff agent "reports"/.test(error.message),
  );
  assert.throws(
    () =>
      agentRoster([pack("a", [desk, shop, person, {
        ...identity,
        id: "reports",
        audience: "staff",
        intents: {
          agent: "reports",
          phrases: { en: ["a report"], rw: ["raporo"], fr: ["un rapport"] },
        },
      }])]),
    (error: Error) => /staff agent "reports"/.test(error.message),
  );
});

Deno.test("agentRoster() gives the memory of the flow that answers: the agent's, else the front desk's", () => {
  const deskMemory: FlowMemory = { version: 1, schema: z.object({ seen: z.boolean().optional() }) };
  const shopMemory: FlowMemory = { version: 3, schema: z.object({ cart: z.string().optional() }) };
  const roster = agentRoster([
    pack("a", [{ ...desk, memory: deskMemory }]),
    pack("b", [{ ...shop, memory: shopMemory }]),
    // A memory without a flow is no flow's: the front desk answers for the agent.
    pack("c", [{ ...person, memory: shopMemory }]),
  ]);
  assert.equal(roster.memoryOf("shop"), shopMemory);
  assert.equal(roster.memoryOf("person"), deskMemory);
  assert.equal(roster.memoryOf("nobody"), deskMemory);
});

Deno.test("tenantRoster() shows a tenant only the agents it runs, and hands to staff without a hand-off agent", async () => {
  const books: PackAgent = {
    ...identity,
    id: "books",
    asks: (text) => /\bbook\b/.test(text),
    menuTitle: { en: "Books", rw: "Ibitabo", fr: "Livres" },
    offlineFlow: reply("books"),
  };
  const all = agentRoster([pack("a", [desk]), pack("b", [shop, books]), pack("c", [person])]);
  const turn = {
    agent: "x",
    language: "fr" as const,
    input: { wamid: "w", text: "" },
    memory: {},
    menu: [],
    progress: () => Promise.resolve(),
  };
  const ask = (roster: typeof all, agent: string) =>
    roster.flowOf(agent)(turn, () => Promise.reject(new Error("no tool may be called")));

  // Runs books only: shop's words reach nobody, the fallback is the front desk, and asking for a
  // person is answered by staff (the channel holds the conversation), in the person's language.
  const booksOnly = tenantRoster(all, new Set(["books"]));
  assert.deepEqual(booksOnly.menu.map((entry) => entry.id), ["books"]);
  assert.equal(booksOnly.topicOf("buy"), null);
  assert.equal(booksOnly.topicOf("a book"), "books");
  assert.equal(booksOnly.topicOf("a person please"), "person");
  assert.equal(booksOnly.fallback, "desk");
  assert.deepEqual(await ask(booksOnly, "person"), {
    replies: [{ text: "Je vous passe à notre équipe. Une personne vous répondra ici." }],
    handoff: true,
    done: true,
  });

  // Runs everything: the roster as the packs give it.
  const every = tenantRoster(all, new Set(["desk", "shop", "books", "person"]));
  assert.deepEqual(every.menu.map((entry) => entry.id), ["shop", "books", "person"]);
  assert.equal(every.topicOf("buy"), "shop");
  assert.equal(every.fallback, "shop");
  assert.deepEqual((await ask(every, "person")).replies, [{ text: "welcome" }]);
});

Deno.test("agentRoster() lists staff agents on the staff menu only, titled by their menu title or name", () => {
  const reports: PackAgent = {
    ...identity,
    id: "reports",
    name: "Reports",
    audience: "staff",
    menuTitle: { en: "Reports", rw: "Raporo", fr: "Rapports" },
    offlineFlow: reply("reports"),
  };
  const ops: PackAgent = {
    ...identity,
    id: "ops",
    name: "Ops desk",
    audience: "staff",
    offlineFlow: reply("ops"),
  };
  // A staff agent without a flow has nothing to say to staff: not on their menu.
  const idle: PackAgent = { ...identity, id: "idle", audience: "staff" };
  const all = agentRoster([pack("a", [desk, shop, person, reports, ops, idle])]);
  assert.deepEqual(all.menu.map((entry) => entry.id), ["shop", "person"]);
  assert.deepEqual(all.staffMenu, [
    { id: "reports", title: { en: "Reports", rw: "Raporo", fr: "Rapports" } },
    { id: "ops", title: { en: "Ops desk", rw: "Ops desk", fr: "Ops desk" } },
  ]);
  assert.equal(all.staffAgent("reports")?.id, "reports");
  // Customer agents, unknown ids and flowless staff agents are no staff agent.
  assert.equal(all.staffAgent("shop"), undefined);
  assert.equal(all.staffAgent("idle"), undefined);
  assert.equal(all.staffAgent("nobody"), undefined);
  // A tenant sees the staff agents it runs.
  const tenant = tenantRoster(all, new Set(["shop", "ops"]));
  assert.deepEqual(tenant.staffMenu.map((entry) => entry.id), ["ops"]);
  assert.equal(tenant.staffAgent("reports"), undefined);
  assert.equal(tenant.staffAgent("ops")?.id, "ops");
});

Deno.test("staffWorkNames() names the staff work of the agents declaring it, only those a tenant runs", () => {
  const staff = (id: string, en: string, fr: string): PackAgent => ({
    ...identity,
    id,
    audience: "staff",
    staffWork: { en: [`do ${en}`], rw: [], fr: [] },
    staffWorkName: { en, rw: en, fr },
  });
  const all = agentRoster([
    pack("a", [desk, shop, person]),
    pack("b", [staff("videos", "video ads", "les vidéos")]),
    pack("c", [staff("reports", "reports", "les rapports")]),
  ]);
  assert.deepEqual(all.staffWorkNames("fr"), [
    { agent: "videos", name: "les vidéos" },
    { agent: "reports", name: "les rapports" },
  ]);
  const noVideos = tenantRoster(all, new Set(["desk", "shop", "person", "reports"]));
  assert.deepEqual(noVideos.staffWorkNames("en"), [{ agent: "reports", name: "reports" }]);
  assert.deepEqual(tenantRoster(all, new Set(["shop"])).staffWorkNames("en"), []);
});
