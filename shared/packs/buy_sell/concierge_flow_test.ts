// The concierge's branches on a tool's error code and details, one step at a time: the flow is
// called as the graph calls it, with a tool caller that answers as the pipeline would. (The
// whole flow runs on both databases in contacts_webhook_test.ts, concierge_memory_test.ts and
// the buy_sell_* scenarios.)
import assert from "node:assert/strict";
import { fail, type ToolResult } from "@shared/contract/mod.ts";
import type { OfflineStep, OfflineTurn } from "@shared/registry/pack.ts";
import { conciergeFlow } from "./concierge_flow.ts";

const KACYIRU = "c0000000-0000-4000-8000-000000000006";
const INQUIRY = "5b8f0c2e-3d4a-4f5b-9c6d-7e8f9a0b1c2d";

/** The buyer has chosen Pharmacie Kacyiru, which said YES 600 2 and stocks nothing we know. */
const CHOSEN = {
  step: "chosen",
  request: {
    inquiry_id: INQUIRY,
    chosen: {
      inquiry_id: INQUIRY,
      business_id: KACYIRU,
      business_name: "Pharmacie Kacyiru",
      vendor_phone: "+250788000009",
      whatsapp_link: "https://wa.me/250788000009",
      item: "paracetamol",
      quantity: 2,
      price: 600,
      total: 1200,
    },
  },
};

function turn(input: Partial<OfflineTurn["input"]>, memory: Record<string, unknown>): OfflineTurn {
  return {
    agent: "buy_and_sell",
    language: "en",
    input: { wamid: "wamid.t", text: "", phone: "+250788000001", ...input },
    memory,
    menu: [],
    progress: () => Promise.resolve(),
  };
}

/** Runs one step with tools answering `answers[tool]`; the calls made, in order. */
async function step(
  at: OfflineTurn,
  answers: Record<string, ToolResult>,
): Promise<{ step: OfflineStep; calls: string[] }> {
  const calls: string[] = [];
  const result = await conciergeFlow.offlineFlow(at, (tool) => {
    calls.push(tool);
    const answer = answers[tool];
    if (!answer) throw new Error(`unexpected call to ${tool}`);
    return Promise.resolve(answer);
  });
  return { step: result, calls };
}

Deno.test("concierge: Order & pay where no payment tool is registered says to pay the vendor", async () => {
  const { step: said, calls } = await step(
    turn({ choice: "concierge_order" }, CHOSEN),
    {
      momo_charge: fail("NOT_FOUND", 'Unknown tool "momo_charge"', {
        details: { unknown_tool: "momo_charge" },
      }),
    },
  );
  assert.deepEqual(calls, ["momo_charge"]);
  assert.equal(
    said.replies?.[0].text,
    "Payment isn't available here yet: pay Pharmacie Kacyiru directly (+250788000009) when you collect it.",
  );
});

Deno.test("concierge: a NOT_FOUND that names no unknown tool is a failure, not 'no payments'", async () => {
  const { step: said } = await step(
    turn({ choice: "concierge_order" }, CHOSEN),
    { momo_charge: fail("NOT_FOUND", "Order not found") },
  );
  assert.equal(
    said.replies?.[0].text,
    "I could not place the order (Order not found). You can still contact Pharmacie Kacyiru: +250788000009.",
  );
});

Deno.test("concierge: the charge waits for the agent's Confirm, keyed by the request and vendor", async () => {
  const { step: said } = await step(
    turn({ choice: "concierge_order" }, CHOSEN),
    {
      momo_charge: fail("CONFIRMATION_REQUIRED", "Please confirm", {
        confirmation: { token: "t", summary: "s", expires_at: "2026-11-22T10:05:00Z" },
      }),
    },
  );
  assert.equal(said.pending?.tool, "momo_charge");
  assert.equal(said.pending?.key, `concierge:${INQUIRY}:${KACYIRU}:charge`);
  assert.equal(
    said.pending?.summary,
    "pay 1,200 RWF to Pharmacie Kacyiru for 2 × paracetamol — 600 RWF × 2 = 1,200 RWF with MoMo from +250788000001.",
  );
});

Deno.test("concierge: a refused confirmation (CANCELLED) orders and charges nothing", async () => {
  const { step: said, calls } = await step(
    turn({ choice: "agent_cancel" }, {
      ...CHOSEN,
      lastResult: fail("CANCELLED"),
      lastTool: "momo_charge",
    }),
    {},
  );
  assert.deepEqual(calls, []);
  assert.equal(
    said.replies?.[0].text,
    "OK, nothing was ordered or charged. Contact Pharmacie Kacyiru at +250788000009, or type 0 for the main menu.",
  );
  // The kept result is cleared: the next turn does not report it again.
  assert.equal(said.memory?.lastResult, null);
});

Deno.test("concierge: a buyer who has just come is not read as in an earlier request", async () => {
  const { step: said, calls } = await step(
    turn({ text: "updates" }, { request: CHOSEN.request }),
    {},
  );
  assert.deepEqual(calls, []);
  assert.equal(
    said.replies?.[0].text,
    "You have no open request. Tell me what you are looking for.",
  );
});
