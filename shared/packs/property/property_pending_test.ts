/**
 * The property flow's open work on both databases: the viewing a renter
 * booked is found while it is booked, cancelled once through the pipeline as
 * the Property agent (the landlord told once by the sweep), and a second
 * cancel changes nothing. The clock is injected: Monday 30 November 2026,
 * 08:00 in Kigali.
 */
import assert from "node:assert/strict";
import { dbTest } from "@testing/db.ts";
import { createTestRuntime, type TestRuntime } from "@testing/runtime.ts";
import { ORG, USER } from "@testing/seed.ts";
import type { OfflineToolCaller } from "@shared/registry/pack.ts";
import { viewingPending } from "./property_pending.ts";

const NOW = new Date("2026-11-30T06:00:00Z");
const BIBARE = "70000000-0000-4000-8000-000000000001";
const JEANNE = "00000000-0000-4000-8000-0000000000e1";
const JEANNE_WA = "250788000201";

/** Tools called as Aline in the Property agent's conversation (`step` keys the call). */
function asAline(rt: TestRuntime, turn: string): OfflineToolCaller {
  return (tool, args, step) =>
    rt.callAs(USER.aline, tool, args, {
      idempotencyKey: `${turn}:${step}`,
      context: { agent_id: "property" },
    });
}

/** Tools called as Jeanne, Bibare's landlord, in the Property agent's conversation. */
function asJeanne(rt: TestRuntime, turn: string): OfflineToolCaller {
  return (tool, args, step) =>
    rt.callAs(JEANNE, tool, args, {
      idempotencyKey: `${turn}:${step}`,
      context: { agent_id: "property" },
    });
}

/** Runs the sweep; answers how many cancellations Jeanne (the landlord, in Kinyarwanda) was told. */
async function cancellationsToJeanne(rt: TestRuntime): Promise<number> {
  await rt.platform.call({
    tool: "property_viewings_sweep",
    args: {},
    caller: { claims: { role: "service_role" }, org_id: ORG.easymo },
    idempotencyKey: crypto.randomUUID(),
  });
  const [{ n }] = await rt.platform.db.query<{ n: number }>(
    `select count(*)::int as n from public.wa_outbox
     where to_wa_id = $1 and body::text like '%byahagaritswe%'`,
    [JEANNE_WA],
  );
  return n;
}

dbTest(
  "viewingPending finds the booked viewing, cancels it once and tells the landlord once",
  async (db) => {
    const rt = await createTestRuntime(db, { now: () => NOW });
    const booked = await rt.callAs(USER.aline, "schedule_viewing", {
      listing_id: BIBARE,
      when: "2026-11-30T10:00:00+02:00",
      name: "Aline",
      phone: "+250788000001",
    }, { idempotencyKey: "book" });
    assert.ok(booked.ok, JSON.stringify(booked));
    const viewingId = booked.data.event_id;
    assert.equal(await cancellationsToJeanne(rt), 0);

    // A landlord who leaves sees no viewing of their listings as their own open work, though
    // they see it among their listings' viewings.
    const hers = await rt.callAs(JEANNE, "property_viewings", {}, { idempotencyKey: "hers" });
    assert.ok(hers.ok, JSON.stringify(hers));
    assert.equal(hers.data.viewings.length, 1);
    assert.equal(
      await viewingPending.find({ language: "en", memory: {} }, asJeanne(rt, "t0")),
      null,
    );
    // A viewing the model booked is not in the flow's memory: it is found in the database.
    assert.equal(
      (await viewingPending.find({ language: "en", memory: {} }, asAline(rt, "t0")))?.id,
      viewingId,
    );
    const context = { language: "fr" as const, memory: { stage: "booked", viewingId } };
    const work = await viewingPending.find(context, asAline(rt, "t1"));
    assert.deepEqual(work, {
      id: viewingId,
      revision: "2026-11-30T08:00:00.000Z",
      summary:
        "une visite de logement de 2 chambres à Kimironko, Bibare réservée pour le lun. 30 nov., 10:00, " +
        "que le propriétaire attend",
    });

    assert.equal(
      await viewingPending.cancel(work!, context, asAline(rt, "t2")),
      "Votre visite de logement de 2 chambres à Kimironko, Bibare le lun. 30 nov., 10:00 est annulée ; " +
        "le propriétaire en est prévenu.",
    );
    const [row] = await db.query<{ status: string; cancelled_by: string }>(
      "select status, cancelled_by from public.property_viewings where id = $1",
      [viewingId],
    );
    assert.deepEqual({ ...row }, { status: "cancelled", cancelled_by: "renter" });
    assert.equal(await cancellationsToJeanne(rt), 1);

    // Answered twice (another message): nothing more is cancelled, nobody told again.
    assert.equal(
      await viewingPending.cancel(work!, context, asAline(rt, "t3")),
      "Cette visite était déjà annulée : rien de plus à faire.",
    );
    assert.equal(await cancellationsToJeanne(rt), 1);
    // Cancelled, it is no longer open work, from memory or from the database.
    assert.equal(await viewingPending.find(context, asAline(rt, "t4")), null);
    assert.equal(
      await viewingPending.find({ language: "en", memory: {} }, asAline(rt, "t5")),
      null,
    );
  },
);

dbTest("a viewing kept on an earlier leave comes after a new one", async (db) => {
  const rt = await createTestRuntime(db, { now: () => NOW });
  const book = async (hour: number) => {
    const booked = await rt.callAs(USER.aline, "schedule_viewing", {
      listing_id: BIBARE,
      when: `2026-11-30T${hour}:00:00+02:00`,
      name: "Aline",
      phone: "+250788000001",
    }, { idempotencyKey: `book-${hour}` });
    assert.ok(booked.ok, JSON.stringify(booked));
    return booked.data.event_id as string;
  };
  // The kept viewing is the flow's (its memory) and the soonest; the new one is later.
  const kept = await book(10);
  const fresh = await book(15);
  const memory = { stage: "booked", viewingId: kept };
  assert.equal(
    (await viewingPending.find({ language: "en", memory }, asAline(rt, "k0")))?.id,
    kept,
  );
  const context = { language: "en" as const, memory, kept: new Set([kept]) };
  assert.equal((await viewingPending.find(context, asAline(rt, "k1")))?.id, fresh);
  // Both kept: a kept one is answered, and the kernel asks nothing about it.
  const both = { ...context, kept: new Set([kept, fresh]) };
  assert.equal((await viewingPending.find(both, asAline(rt, "k2")))?.id, kept);
});
