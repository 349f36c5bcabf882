/**
 * The insurance pack's settings, read from the environment when used:
 * `INSURANCE_MOMO_PAYEE`, the Rwandan MoMo number premiums are collected on
 * (EasyMO's insurance desk). There is deliberately no default: without it
 * the Insurance agent never asks a customer to pay an unknown number, it
 * hands the chosen quote to staff to take the payment.
 *
 * @module
 */

/**
 * The MoMo number premiums are paid to, as E.164 (`+2507…`), or null when
 * it is not configured.
 *
 * @throws {RangeError} when it is set but is not a Rwandan mobile number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { insurancePayee } from "./settings.ts";
 *
 * assert.equal(insurancePayee({ get: () => "0788123456" }), "+250788123456");
 * assert.equal(insurancePayee({ get: () => undefined }), null);
 * ```
 */
export function insurancePayee(env: Pick<Deno.Env, "get"> = Deno.env): string | null {
  const raw = env.get("INSURANCE_MOMO_PAYEE")?.replace(/[\s-]/g, "") ?? "";
  if (raw === "") return null;
  const match = /^(?:\+?250|0)(7[0-9]{8})$/.exec(raw);
  if (!match) {
    throw new RangeError(
      `Cannot read INSURANCE_MOMO_PAYEE as it must be a Rwandan mobile number like 0788123456: current value is ${
        JSON.stringify(raw)
      }`,
    );
  }
  return `+250${match[1]}`;
}
