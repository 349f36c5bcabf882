import assert from "node:assert/strict";
import { customerAgents, type Pack, type PackAgent, packAgents, staffAgents } from "./pack.ts";

const agent = (id: string, audience: PackAgent["audience"]): PackAgent => ({
  id,
  name: id,
  description: "Test agent.",
  audience,
  tools: [],
});
const pack = (id: string, agents: PackAgent[]): Pack => ({
  id,
  tools: [],
  agents,
  tables: {},
  texts: {},
  services: [],
});

Deno.test("who customers may reach, and who only staff use, is read from the packs' agents", () => {
  const packs = [
    pack("desk", [agent("desk", "customers"), agent("reports", "staff")]),
    pack("library", [agent("library_desk", "customers")]),
  ];
  assert.deepEqual(packAgents(packs).map((a) => a.id), ["desk", "reports", "library_desk"]);
  assert.deepEqual(customerAgents(packs), ["desk", "library_desk"]);
  assert.deepEqual(staffAgents(packs), ["reports"]);
  // A pack more is an agent more: no list elsewhere to edit.
  assert.deepEqual(customerAgents(packs.slice(0, 1)), ["desk"]);
});
