/**
 * Helpers for payments tests: a confirmed `momo_charge` call and an order
 * at the café, through the production pipeline.
 *
 * @module
 */
import { type TestData, type TestRuntime } from "./runtime.ts";
import { ORG, USER } from "./seed.ts";

/** Café Nyamirambo (MoMoPay merchant 210045, owner Diane). */
export const CAFE = "c0000000-0000-4000-8000-000000000002";

/** Calls momo_charge as `user`, confirming when asked. */
export async function charge(
  rt: TestRuntime,
  args: Record<string, unknown>,
  options: { user?: string; key?: string; org?: string } = {},
): Promise<TestData> {
  const user = options.user ?? USER.aline;
  const key = options.key ?? String(args.idempotency_key ?? crypto.randomUUID());
  const call = { currency: "RWF", memo: "Test", idempotency_key: key, ...args };
  const asked = await rt.callAs(user, "momo_charge", call, {
    idempotencyKey: key,
    org: options.org,
  });
  if (asked.ok || asked.error.code !== "CONFIRMATION_REQUIRED") return asked;
  return await rt.callAs(user, "momo_charge", call, {
    idempotencyKey: key,
    org: options.org,
    confirmation: asked.error.confirmation.token,
  });
}

/** An order of Aline's at the café (5,000 RWF), as the database numbers it. */
export async function cafeOrder(rt: TestRuntime, customer = USER.aline): Promise<string> {
  const [row] = await rt.platform.db.query<{ id: string }>(
    `insert into public.orders (org_id, business_id, customer_id, total)
     values ($1, $2, $3, 5000) returning id`,
    [ORG.easymo, CAFE, customer],
  );
  return row.id;
}
