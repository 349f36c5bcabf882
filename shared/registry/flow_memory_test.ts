import assert from "node:assert/strict";
import { z } from "zod";
import {
  type FlowMemory,
  keptVersion,
  MEMORY_VERSIONS,
  resumeMemory,
  stampVersion,
  typedFlow,
} from "./flow_memory.ts";
import type { OfflineTurn } from "./pack.ts";

// Version 2 keeps the pickup as an object; version 1 kept its name only.
const rideV2: FlowMemory = {
  version: 2,
  schema: z.object({
    step: z.enum(["pickup", "dest"]).nullish(),
    pickup: z.object({ name: z.string() }).optional(),
  }),
};

const migrating: FlowMemory = {
  ...rideV2,
  migrate: (old, from) =>
    from === 1 && typeof old.pickupName === "string"
      ? { step: old.step, pickup: { name: old.pickupName } }
      : null,
};

Deno.test("resumeMemory() reads memory kept at its version as it is", () => {
  const memory = { step: "dest", pickup: { name: "Kimironko" }, [MEMORY_VERSIONS]: { ride: 2 } };
  assert.deepEqual(resumeMemory(rideV2, "ride", memory), { kind: "current", memory });
});

Deno.test("resumeMemory() adopts memory kept before versions when its schema reads it", () => {
  // A new conversation, and one kept before the flow declared its memory.
  assert.equal(resumeMemory(rideV2, "ride", {}).kind, "current");
  assert.equal(resumeMemory(rideV2, "ride", { step: null, other: 1 }).kind, "current");
});

Deno.test("resumeMemory() migrates memory of an older version through migrate", () => {
  const old = { step: "dest", pickupName: "Kimironko", [MEMORY_VERSIONS]: { ride: 1 } };
  assert.deepEqual(resumeMemory(migrating, "ride", old), {
    kind: "migrated",
    memory: { step: "dest", pickup: { name: "Kimironko" } },
    from: 1,
  });
});

Deno.test("resumeMemory() restarts when there is no migrate, or it cannot migrate", () => {
  const old = { step: "dest", pickupName: "Kimironko", [MEMORY_VERSIONS]: { ride: 1 } };
  // The old memory would even pass the new schema: its version says it means something else.
  assert.deepEqual(resumeMemory(rideV2, "ride", old), {
    kind: "restart",
    from: 1,
    issues: "kept at version 1, now 2",
  });
  const unreadable = { step: "dest", pickupName: 7, [MEMORY_VERSIONS]: { ride: 1 } };
  assert.equal(resumeMemory(migrating, "ride", unreadable).kind, "restart");
});

Deno.test("resumeMemory() restarts on memory its schema refuses, naming the fields", () => {
  const broken = { step: "somewhere", pickup: "Kimironko", [MEMORY_VERSIONS]: { ride: 2 } };
  assert.deepEqual(resumeMemory(rideV2, "ride", broken), {
    kind: "restart",
    from: 2,
    issues: "step, pickup",
  });
});

Deno.test("keptVersion() and stampVersion() keep one version per agent", () => {
  const stamped = stampVersion({ [MEMORY_VERSIONS]: { waiter: 3 } }, "ride", 2);
  assert.deepEqual(stamped, { [MEMORY_VERSIONS]: { waiter: 3, ride: 2 } });
  assert.equal(keptVersion(stamped, "ride"), 2);
  assert.equal(keptVersion(stamped, "insurance"), 0);
  assert.equal(keptVersion({ [MEMORY_VERSIONS]: "junk" }, "ride"), 0);
});

Deno.test("typedFlow() hands the step its memory read by the schema, cleared keys absent", async () => {
  const seen: unknown[] = [];
  const flow = typedFlow({
    version: 1,
    memory: z.object({ count: z.int().optional(), name: z.string().nullish() }),
    step(turn) {
      seen.push(turn.memory);
      return Promise.resolve({ memory: { count: (turn.memory.count ?? 0) + 1 } });
    },
  });
  const turn: OfflineTurn = {
    agent: "counter",
    language: "en",
    input: { wamid: "w", text: "hi" },
    memory: { count: 2, name: null, otherAgentsKey: "x", [MEMORY_VERSIONS]: { counter: 1 } },
    menu: [],
    progress: () => Promise.resolve(),
  };
  assert.deepEqual(await flow.offlineFlow(turn, () => Promise.reject(new Error("no tools"))), {
    memory: { count: 3 },
  });
  assert.deepEqual(seen, [{ count: 2 }]);
  assert.equal(flow.memory.version, 1);
});

Deno.test("typedFlow() refuses a memory schema a new conversation cannot pass, and a bad version", () => {
  const step = () => Promise.resolve({});
  assert.throws(
    () => typedFlow({ version: 1, memory: z.object({ step: z.string() }), step }),
    /refuses \{\}/,
  );
  assert.throws(
    () => typedFlow({ version: 0, memory: z.object({}), step }),
    /current value is 0/,
  );
});
