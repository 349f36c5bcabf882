/**
 * Helpers for payments tests: a confirmed `momo_charge` call and an order
 * at the café, through the production pipeline.
 *
 * @module
 */
import type { Database } from "@shared/db/types.ts";
import type { ServiceProvision } from "@shared/platform/platform.ts";
import { PAYMENTS_CONFIG, paymentsConfigFromEnv } from "@shared/packs/payments/mod.ts";
import {
  createTestRuntime,
  type TestData,
  type TestRuntime,
  type TestRuntimeOptions,
} from "./runtime.ts";
import { ORG, USER } from "./seed.ts";

/** The callback secret of the test payments function. */
export const TEST_CALLBACK_SECRET = "callback-secret-for-tests-0123";

/** The payments settings of the environment, with `callbackSecret` as providers sign. */
export function paymentsSettings(callbackSecret = TEST_CALLBACK_SECRET): ServiceProvision {
  return {
    key: PAYMENTS_CONFIG,
    value: { ...paymentsConfigFromEnv(), callbackSecret },
  };
}

/** A test runtime whose payments function takes callbacks signed with {@link TEST_CALLBACK_SECRET}. */
export function createPaymentsRuntime(
  db: Database,
  options: TestRuntimeOptions = {},
): Promise<TestRuntime> {
  return createTestRuntime(db, {
    ...options,
    provide: [paymentsSettings(), ...(options.provide ?? [])],
  });
}

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
