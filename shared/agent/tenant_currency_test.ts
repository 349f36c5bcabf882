// A flow writes amounts in its tenant's currency (`orgs.currency`, given to the flow as
// `OfflineTurn.currency`), through the format capability's money format: the ride quote of a
// tenant that prices in KES names KES, one that has none set the default.
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { deploy } from "@testing/flow_deploys.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { ORG } from "@testing/seed.ts";
import { createRouter } from "./router.ts";

const ASKING = "I need a moto from Kimironko to Nyabugogo";

dbTest("a ride quote names the tenant's currency, and the default when it has none", async (db) => {
  for (
    const [currency, from, written] of [
      ["KES", "250788000081", "KES"],
      [null, "250788000082", "RWF"],
    ] as const
  ) {
    await db.query("update public.orgs set currency = $1 where id = $2", [currency, ORG.easymo]);
    const rt = await createTestRuntime(db);
    const router = createRouter({ packs: rt.platform.packs });
    const send = await deploy(db, { packs: rt.platform.packs, router, from });
    const [quote] = await send({ text: ASKING });
    // "about 2,300 KES (between 2,000 KES and 2,600 KES)": each amount with its currency.
    assert.match(
      quote,
      new RegExp(`about [0-9,]+ ${written} \\(between [0-9,]+ ${written} and`),
      quote,
    );
    assert.equal(quote.match(/RWF|KES/g)?.length, 3, quote);
    assert.ok(quote.includes(written) && !quote.includes(written === "KES" ? "RWF" : "KES"), quote);
  }
});
