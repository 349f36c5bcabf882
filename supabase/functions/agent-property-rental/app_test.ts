// The agent-property-rental function as it is deployed (the composition root's pack function for
// property) on a real HTTP server on 127.0.0.1, over each database: staff see the listings
// waiting for approval with their photos and approve or reject one, which publishes it to
// renters' searches; a renter, another tenant's staff and bad input get contract errors.
import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { USER } from "@testing/seed.ts";
import { serveFunction } from "@testing/serve_function.ts";
import { createPackFunction } from "@shared/platform/pack_function.ts";

const NAME = "agent-property-rental";
const KAMATAMU = "70000000-0000-4000-8000-000000000006"; // pending, seeded

async function serve(db: TestDatabase) {
  const rt = await createTestRuntime(db, { now: () => new Date("2026-11-30T06:00:00Z") });
  const app = createPackFunction(rt, { name: NAME, pack: "property" });
  const server = serveFunction(NAME, (request) => app.fetch(request));
  const as = async (userId: string) => {
    const token = await rt.tokenFor(userId);
    return async (path: string, body?: unknown, key?: string) => {
      const response = await fetch(`${server.url}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(key ? { "idempotency-key": key } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() };
    };
  };
  return { rt, as, close: () => server.close() };
}

dbTest("agent-property-rental: staff approve a pending listing and renters find it", async (db) => {
  const { rt, as, close } = await serve(db);
  try {
    const jean = await as(USER.jean);
    const queue = await jean(`/listings`);
    assert.equal(queue.status, 200, JSON.stringify(queue.body));
    assert.deepEqual(queue.body.data.listings.map((l: { id: string }) => l.id), [KAMATAMU]);
    assert.equal(queue.body.data.listings[0].photo_count, 2);

    const before = await rt.callAs(USER.aline, "property_search", { area: "Kacyiru" });
    assert.deepEqual(before.data.listings, []);
    const noKey = await jean(`/listings/review`, {
      listing_id: KAMATAMU,
      decision: "approve",
    });
    assert.equal(noKey.status, 400);
    assert.equal(noKey.body.error.fields[0].path, "idempotency_key");
    const noReason = await jean(`/listings/review`, {
      listing_id: KAMATAMU,
      decision: "reject",
    }, "r0");
    assert.equal(noReason.status, 400);
    assert.equal(noReason.body.error.fields[0].path, "reason");
    const approved = await jean(`/listings/review`, {
      listing_id: KAMATAMU,
      decision: "approve",
    }, "r1");
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.deepEqual(approved.body.data, { listing_id: KAMATAMU, status: "published" });
    const after = await rt.callAs(USER.aline, "property_search", { area: "Kacyiru" });
    assert.deepEqual(after.data.listings.map((l: { id: string }) => l.id), [KAMATAMU]);
    // Aline books it; staff see the viewing of that listing (and nothing of others).
    const booked = await rt.callAs(USER.aline, "schedule_viewing", {
      listing_id: KAMATAMU,
      when: "2026-12-01T10:00:00+02:00",
      name: "Aline",
      phone: "+250788000001",
    }, { idempotencyKey: "v1" });
    assert.ok(booked.ok, JSON.stringify(booked));
    const viewings = await jean(`/viewings?listing_id=${KAMATAMU}`);
    assert.equal(viewings.status, 200);
    assert.deepEqual(viewings.body.data.viewings.map((v: { name: string }) => v.name), ["Aline"]);
    const other = await jean(`/viewings?listing_id=70000000-0000-4000-8000-000000000001`);
    assert.deepEqual(other.body.data.viewings, []);
    // Reviewed once: a second decision finds no pending listing.
    const again = await jean(`/listings/review`, {
      listing_id: KAMATAMU,
      decision: "reject",
      reason: "Photos are blurry",
    }, "r2");
    assert.equal(again.status, 404);
  } finally {
    await close();
  }
});

dbTest(
  "agent-property-rental: a renter, another tenant's staff and bad paths are refused",
  async (db) => {
    const { as, close } = await serve(db);
    try {
      const aline = await as(USER.aline);
      assert.equal((await aline(`/listings`)).status, 403);
      const review = await aline(`/listings/review`, {
        listing_id: KAMATAMU,
        decision: "approve",
      }, "a1");
      assert.equal(review.status, 403);
      // Beaver's staff see Beaver's queue only (empty), and cannot review EasyMO's listing.
      const paul = await as(USER.paul);
      const foreign = await paul(`/listings/review`, {
        listing_id: KAMATAMU,
        decision: "approve",
      }, "p1");
      assert.ok([403, 404].includes(foreign.status), JSON.stringify(foreign));
      const [{ status }] = await db.query<{ status: string }>(
        "select status from public.property_listings where id = $1",
        [KAMATAMU],
      );
      assert.equal(status, "pending");
      const jean = await as(USER.jean);
      assert.equal((await jean(`/nowhere`)).status, 404);
      const bad = await jean(`/listings?status=sold`);
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.fields[0].path, "status");
    } finally {
      await close();
    }
  },
);
