/**
 * The insurance pack's settings, read from the environment when used:
 * `INSURANCE_MOMO_PAYEE`, the Rwandan MoMo number premiums are collected on
 * (EasyMO's insurance desk), and `INSURANCE_MOMO_PAYEE_NAME`, whose number it
 * is, named beside it in every payment prompt. There is deliberately no default: without it
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

/**
 * Whose number `INSURANCE_MOMO_PAYEE` is, as the customer is told beside the
 * number ("EasyMO Insurance (0788 000 002)"): a bare number to pay reads like
 * a scam.
 *
 * @default "EasyMO Insurance"
 * @throws {RangeError} when it is set longer than 80 characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { insurancePayeeName } from "./settings.ts";
 *
 * assert.equal(insurancePayeeName({ get: () => " Radiant desk " }), "Radiant desk");
 * assert.equal(insurancePayeeName({ get: () => undefined }), "EasyMO Insurance");
 * ```
 */
export function insurancePayeeName(env: Pick<Deno.Env, "get"> = Deno.env): string {
  const name = env.get("INSURANCE_MOMO_PAYEE_NAME")?.trim() ?? "";
  if (name.length > 80) {
    throw new RangeError(
      `Cannot read INSURANCE_MOMO_PAYEE_NAME as it must be at most 80 characters: current value is ${name.length} long`,
    );
  }
  return name || "EasyMO Insurance";
}
