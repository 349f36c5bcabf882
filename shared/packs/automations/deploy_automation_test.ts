/**
 * `deploy_automation` saves its rule in the call's own transaction, as the
 * calling staff member, through `private.automation_save` (both databases):
 * a call that fails after the save leaves no rule, a replay answers the same
 * rule without saving again, and nobody (a customer, another org's staff, the
 * org's own staff outside the tool's call) writes a rule around its checks.
 */
import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { ORG, USER } from "@testing/seed.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { type JwtClaims, setCallerScript } from "@shared/db/types.ts";

const URGENT = {
  name: "Urgent messages to Slack",
  trigger: { event: "message_received" },
  condition: { path: "text", op: "contains", value: "urgent", case_insensitive: true },
  actions: [{
    tool: "slack_notify",
    args: { text: "Urgent from {{event.sender_name}}: {{event.text}}" },
  }],
};

const as = (sub: string): JwtClaims => ({ sub, role: "authenticated" });

function rules(db: TestDatabase, name: string) {
  return db.query<{ id: string; created_by: string | null; updated_at: Date; actions: unknown }>(
    "select id, created_by, updated_at, actions from public.automations where org_id = $1 and name = $2",
    [ORG.easymo, name],
  );
}

dbTest(
  "deploy_automation saves the rule as the calling staff member; a replay answers the same rule",
  async (db) => {
    const rt = await createTestRuntime(db);
    try {
      const first = await rt.callAs(USER.jean, "deploy_automation", URGENT, {
        idempotencyKey: "deploy-1",
      });
      assert.equal(first.ok, true, JSON.stringify(first));
      const [saved] = await rules(db, URGENT.name);
      assert.equal(first.data.id, saved.id);
      // Who deployed it is the caller the database saw, not an argument.
      assert.equal(saved.created_by, USER.jean);
      // The same key again: the ledger's answer, and no second save.
      const replay = await rt.callAs(USER.jean, "deploy_automation", URGENT, {
        idempotencyKey: "deploy-1",
      });
      assert.deepEqual(replay, first);
      const after = await rules(db, URGENT.name);
      assert.equal(after.length, 1);
      assert.equal(after[0].updated_at.getTime(), saved.updated_at.getTime());
      // A new deploy of the name replaces the rule in place.
      const changed = {
        ...URGENT,
        actions: [{ tool: "slack_notify", args: { text: "Urgent: {{event.text}}" } }],
      };
      const again = await rt.callAs(USER.jean, "deploy_automation", changed, {
        idempotencyKey: "deploy-2",
      });
      assert.equal(again.data.id, saved.id);
      assert.deepEqual((await rules(db, URGENT.name))[0].actions, changed.actions);
    } finally {
      await rt.platform.close();
    }
  },
);

dbTest("a deploy_automation call that fails after its save leaves no rule", async (db) => {
  // Refused when the call's transaction commits, on another table than the rule's: the ledger's
  // answer to this key. Whatever was saved outside that transaction would stay.
  await db.exec(`
    create function public.test_refuse_commit() returns trigger language plpgsql as $$
    begin raise exception 'refused at commit'; end $$;
    create constraint trigger ledger_refuse_commit after insert or update
      on private.idempotency_keys deferrable initially deferred for each row
      when (new.key = 'deploy-refused') execute function public.test_refuse_commit();`);
  const rt = await createTestRuntime(db);
  try {
    const spec = { ...URGENT, name: "Refused at commit" };
    const failed = await rt.callAs(USER.jean, "deploy_automation", spec, {
      idempotencyKey: "deploy-refused",
    });
    assert.equal(failed.ok, false);
    assert.equal(failed.error.code, "INTERNAL_ERROR");
    assert.deepEqual(await rules(db, spec.name), []);
    // Nothing was kept of the call: once the database takes it, the same key saves it once.
    await db.exec("drop trigger ledger_refuse_commit on private.idempotency_keys");
    const retried = await rt.callAs(USER.jean, "deploy_automation", spec, {
      idempotencyKey: "deploy-refused",
    });
    assert.equal(retried.ok, true, JSON.stringify(retried));
    assert.equal((await rules(db, spec.name)).length, 1);
  } finally {
    await rt.platform.close();
  }
});

dbTest(
  "only the org's staff save a rule, and only inside a deploy_automation call",
  async (db) => {
    const rt = await createTestRuntime(db);
    try {
      // Through the pipeline: a customer, and another org's staff, are refused before any save.
      for (const user of [USER.aline, USER.paul]) {
        const refused = await rt.callAs(user, "deploy_automation", URGENT, {
          idempotencyKey: `deploy-${user}`,
        });
        assert.equal(refused.error?.code, "AUTH_ERROR", user);
      }
      assert.deepEqual(await rules(db, URGENT.name), []);

      const rule = { ...URGENT, condition: null };
      // Straight to the function, as each caller (what a session of their own could run).
      const direct = (claims: JwtClaims, claim?: { tool: string; scope?: string }) =>
        db.transaction(async (tx) => {
          if (claim) {
            // What the pipeline does: claim the call's key as the connecting role, then become
            // the caller.
            await tx.query(
              `insert into private.idempotency_keys (scope, key, tool, fingerprint)
               values ($1, 'direct', $2, 'f')`,
              [claim.scope ?? `${ORG.easymo}:${claims.sub}`, claim.tool],
            );
          }
          await tx.exec(setCallerScript(claims));
          const [row] = await tx.query<{ id: string }>(
            "select private.automation_save($1, $2::jsonb, null) as id",
            [ORG.easymo, rule],
          );
          return row.id;
        }).then(
          () => "saved",
          (error: { code?: string }) => `refused ${error.code ?? error}`,
        );
      // Outside a deploy_automation call: the org's own staff too.
      assert.equal(await direct(as(USER.jean)), "refused 42501");
      assert.equal(await direct(as(USER.aline)), "refused 42501");
      assert.equal(await direct(as(USER.paul)), "refused 42501");
      assert.equal(await direct({ role: "anon" }), "refused 42501");
      // A claim of another tool's call, or of another caller's, admits nothing.
      assert.equal(
        await direct(as(USER.jean), { tool: "automation_pause" }),
        "refused 42501",
      );
      assert.equal(
        await direct(as(USER.jean), {
          tool: "deploy_automation",
          scope: `${ORG.easymo}:${USER.grace}`,
        }),
        "refused 42501",
      );
      // Nor may a caller write the ledger to forge a claim.
      assert.equal(
        await db.asCaller(as(USER.jean), (tx) =>
          tx.query(
            `insert into private.idempotency_keys (scope, key, tool, fingerprint)
             values ($1, 'forged', 'deploy_automation', 'f')`,
            [`${ORG.easymo}:${USER.jean}`],
          )).then(() => "written", (error: { code?: string }) => `refused ${error.code}`),
        "refused 42501",
      );
      // A customer with a claim is still no staff member.
      assert.equal(
        await direct(as(USER.aline), { tool: "deploy_automation" }),
        "refused 42501",
      );
      assert.deepEqual(await rules(db, URGENT.name), []);
      // The pipeline's own shape: staff, inside the call. The function takes it.
      assert.equal(await direct(as(USER.jean), { tool: "deploy_automation" }), "saved");
      assert.equal((await rules(db, URGENT.name)).length, 1);
    } finally {
      await rt.platform.close();
    }
  },
);

dbTest("automation_save holds a rule to the shape deploy_automation checked", async (db) => {
  // An internal (service-only) tool as the catalog records it.
  await db.exec(`
    with s as (insert into public.services (name, title, kind, content_hash)
               values ('plumbing', 'Plumbing', 'platform', 'h') returning id)
    insert into public.service_tools (service_id, name, title, summary, description, category,
      parameters, returns, side_effects, auth, internal, content_hash)
    select id, 'payment_settle', 'Settle', 'Settle', 'Settle', 'payments', '{}', '{}',
           'writes.payment', 'service', true, 'h' from s`);
  const save = (rule: unknown, next: string | null = null) =>
    db.transaction(async (tx) => {
      await tx.query(
        `insert into private.idempotency_keys (scope, key, tool, fingerprint)
         values ($1, $2, 'deploy_automation', 'f')`,
        [`${ORG.easymo}:${USER.jean}`, crypto.randomUUID()],
      );
      await tx.exec(setCallerScript(as(USER.jean)));
      await tx.query("select private.automation_save($1, $2::jsonb, $3)", [ORG.easymo, rule, next]);
    }).then(() => "saved", (error: { code?: string }) => `refused ${error.code}`);
  const action = { tool: "slack_notify", args: { text: "hi" } };
  const base = { name: "Shape", trigger: { event: "message_received" }, actions: [action] };
  const refusals: Array<[string, unknown, string | null]> = [
    ["an unknown field", { ...base, owner: "me" }, null],
    ["no name", { ...base, name: "  " }, null],
    ["an event and a schedule", {
      ...base,
      trigger: { event: "message_received", schedule: { every_minutes: 5 } },
    }, null],
    ["an event with a slot", base, "2030-01-01T00:00:00Z"],
    ["a schedule without its slot", { ...base, trigger: { schedule: { every_minutes: 5 } } }, null],
    ["a cron of four fields", {
      ...base,
      trigger: { schedule: { cron: "0 9 * *" } },
    }, "2030-01-01T00:00:00Z"],
    ["an unknown operator", {
      ...base,
      condition: { path: "text", op: "like", value: "x" },
    }, null],
    ["no actions", { ...base, actions: [] }, null],
    ["eleven actions", { ...base, actions: Array(11).fill(action) }, null],
    ["arguments that are not an object", { ...base, actions: [{ tool: "x", args: [] }] }, null],
  ];
  for (const [what, rule, next] of refusals) {
    assert.equal(await save(rule, next), "refused 22023", what);
  }
  assert.equal(
    await save({ ...base, actions: [{ tool: "payment_settle", args: {} }] }),
    "refused 42501",
    "an internal tool",
  );
  assert.equal(await save(base), "saved");
  assert.equal(
    await save(
      { ...base, name: "Every five", trigger: { schedule: { every_minutes: 5 } } },
      "2030-01-01T00:00:00Z",
    ),
    "saved",
  );
});
