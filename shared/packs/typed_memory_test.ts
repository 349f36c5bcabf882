// Every agent's flow declares what it keeps between turns, typed and versioned, so that a
// deploy resumes kept conversations safely (shared/registry/flow_memory.ts). The memories
// refuse what their flows could not read: that is what restarts a conversation.
import assert from "node:assert/strict";
import { resumeMemory } from "@shared/registry/flow_memory.ts";
import type { FlowMemory, PackAgent } from "@shared/registry/pack.ts";
import { PACKS } from "./mod.ts";

// Buy & sell's concierge moves onto the typed contract in its own change; until then its
// flow's memory is the one left undeclared.
const NOT_YET_TYPED = new Set(["buy_and_sell"]);

const agents: readonly PackAgent[] = PACKS.flatMap((pack) => pack.agents);

function memoryOf(id: string): FlowMemory {
  const memory = agents.find((agent) => agent.id === id)?.memory;
  assert.ok(memory, `${id} declares no memory`);
  return memory;
}

Deno.test("every agent with a flow declares its memory, which a new conversation passes", () => {
  const undeclared = agents
    .filter((agent) => agent.offlineFlow && !agent.memory && !NOT_YET_TYPED.has(agent.id))
    .map((agent) => agent.id);
  assert.deepEqual(undeclared, []);
  for (const agent of agents) {
    if (!agent.memory) continue;
    assert.deepEqual(resumeMemory(agent.memory, agent.id, {}).kind, "current", agent.id);
  }
});

Deno.test("memory kept by a later version of any agent's flow restarts it when nothing migrates it", () => {
  for (const agent of agents) {
    if (!agent.memory || agent.memory.migrate) continue;
    const kept = { memoryVersions: { [agent.id]: agent.memory.version + 1 } };
    assert.equal(resumeMemory(agent.memory, agent.id, kept).kind, "restart", agent.id);
  }
});

Deno.test("the ordering agents' memory refuses an order step of another shape, naming the field", () => {
  const oldStep = {
    step: {
      venue: { id: "b1", name: "Pharmacie Conseil Kimihurura" },
      stock: [{ sku: "PARA-500", name: "Paracetamol 500mg", price: "500 RWF", available: true }],
    },
  };
  for (const id of ["pharmacy", "hardware", "shop", "waiter_ai"]) {
    const resumed = resumeMemory(memoryOf(id), id, oldStep);
    assert.deepEqual(resumed, { kind: "restart", from: 0, issues: "step.stock.0.price" }, id);
    // The shape the ordering steps keep is read as it is, kept before versions or at this one.
    const kept = {
      step: {
        venues: [{ id: "b1", name: "Pharmacie Conseil Kimihurura", area: null, km: 1.2 }],
        order: { id: "o1", no: "A-1001", total: 1300, venue: "Pharmacie Conseil Kimihurura" },
      },
      place: "Kimihurura",
      lastResult: null,
      // Another agent's fields are no concern of this one's.
      booking: null,
      vehicle: "moto",
    };
    assert.equal(resumeMemory(memoryOf(id), id, kept).kind, "current", id);
  }
});

Deno.test("Payments, the hand-off and the front desk read what they keep, and refuse another shape", () => {
  const payments = memoryOf("payments");
  assert.equal(
    resumeMemory(payments, "payments", {
      lastResult: { ok: true, data: { momo_ref: "PAY-1" } },
      lastTool: "momo_charge",
    }).kind,
    "current",
  );
  assert.deepEqual(resumeMemory(payments, "payments", { lastTool: 7 }), {
    kind: "restart",
    from: 0,
    issues: "lastTool",
  });

  const handoff = memoryOf("support_handoff");
  assert.equal(
    resumeMemory(handoff, "support_handoff", { handedFrom: "waiter_ai" }).kind,
    "current",
  );
  assert.deepEqual(resumeMemory(handoff, "support_handoff", { handedFrom: { id: "waiter_ai" } }), {
    kind: "restart",
    from: 0,
    issues: "handedFrom",
  });

  // The front desk (and the staff agents it answers for) and Property keep nothing:
  // whatever the conversation holds is no concern of theirs.
  for (const id of ["concierge_router", "property"]) {
    assert.equal(resumeMemory(memoryOf(id), id, { step: { any: "shape" } }).kind, "current", id);
  }
  // Legal Intake keeps its case as it goes: a step it does not know restarts it, naming the field.
  const legal = memoryOf("legal_intake");
  assert.equal(
    resumeMemory(legal, "legal_intake", { step: "documents", category: "land", docs: [] }).kind,
    "current",
  );
  assert.deepEqual(resumeMemory(legal, "legal_intake", { step: { any: "shape" } }), {
    kind: "restart",
    from: 0,
    issues: "step",
  });
});
