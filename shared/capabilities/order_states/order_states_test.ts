import assert from "node:assert/strict";
import { checkTransition, ORDER_STATUSES, ORDER_TRANSITIONS } from "./order_states.ts";

Deno.test("cancel is allowed only before preparing", () => {
  for (const from of ORDER_STATUSES) {
    const check = checkTransition({ from, to: "cancelled", paid: true });
    const expected = from === "cancelled"
      ? "same"
      : ["pending", "confirmed"].includes(from)
      ? "move"
      : "invalid";
    assert.equal(check.kind, expected, from);
  }
});

Deno.test("the happy path needs settlement from preparing on", () => {
  const path = ["pending", "confirmed", "preparing", "ready", "delivered"] as const;
  for (let i = 1; i < path.length; i++) {
    const from = path[i - 1], to = path[i];
    assert.equal(checkTransition({ from, to, paid: true }).kind, "move");
    assert.equal(
      checkTransition({ from, to, paid: false }).kind,
      to === "confirmed" ? "move" : "unpaid",
    );
  }
});

Deno.test("skipping a step or going back is invalid and names the allowed moves", () => {
  assert.deepEqual(checkTransition({ from: "pending", to: "ready", paid: true }), {
    kind: "invalid",
    allowed: ORDER_TRANSITIONS.pending,
  });
  assert.equal(checkTransition({ from: "delivered", to: "ready", paid: true }).kind, "invalid");
  assert.equal(checkTransition({ from: "ready", to: "ready", paid: false }).kind, "same");
});
