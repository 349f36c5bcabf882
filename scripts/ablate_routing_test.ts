import assert from "node:assert/strict";
import { platformRouter } from "@shared/platform/router.ts";
import { decideRoute } from "@shared/agent/route_decision.ts";
import { ablatedDecide, type Ablation, ABLATIONS } from "./ablate_routing.ts";

const NEW = { agent: null, atMenu: false, menuOptions: [], langPref: null };

Deno.test("every measured rule still has the text its ablation switches off", async () => {
  // A rule edited or deleted without mending ABLATIONS would be measured as gone (or fail the run).
  for (const ablation of ABLATIONS) {
    assert.equal(typeof await ablatedDecide(ablation), "function", ablation.name);
  }
});

Deno.test("an ablation switches its rule off and nothing else", async () => {
  const context = platformRouter();
  const contentFree = await ablatedDecide(ABLATIONS.find((a) => a.name === "content_free")!);
  // Words that name nothing: only the rule makes it a clarifying question.
  const text = "je veux";
  assert.equal(decideRoute(text, NEW, context).kind, "clarify");
  assert.notEqual(contentFree(text, NEW, context).kind, "clarify");
  // A message the rule never reads decides alike.
  const food = "I want to order pizza";
  assert.deepEqual(contentFree(food, NEW, context), decideRoute(food, NEW, context));
});

Deno.test("an ablation whose text is gone fails with its name", async () => {
  const stale: Ablation = { name: "stale", does: "nothing", patches: [["no such text", ""]] };
  await assert.rejects(() => ablatedDecide(stale), /Cannot ablate stale/);
});
