/**
 * `momo_charge`'s read-back speaks the payer's language about what is paid:
 * a ride is "urugendo"/"course", never the English memo "Ride …".
 */
import assert from "node:assert/strict";
import { unreadDatabase } from "@testing/pipeline_calls.ts";
import { momoCharge } from "./momo_charge.ts";

function summary(args: Record<string, unknown>): Promise<string> {
  const parsed = momoCharge.input.parse({
    amount: 3950,
    currency: "RWF",
    phone: "+250788000001",
    idempotency_key: "ride:1:momo",
    ...args,
  });
  return Promise.resolve(
    momoCharge.confirmSummary!(parsed, {
      tenantName: "EasyMO",
      read: unreadDatabase().openCallerReads({ role: "authenticated" }),
    }),
  );
}

const RIDE = "d0000000-0000-4000-8000-000000000001";

Deno.test("momo_charge's read-back of a ride names the trip in the payer's language", async () => {
  const memo = "Ride Kimironko - Nyabugogo";
  assert.equal(
    await summary({ memo, ride_request_id: RIDE, language: "rw" }),
    "Kwishyura 3,950 RWF kuri shoferi wawe (urugendo Kimironko - Nyabugogo) ukoresheje nimero yawe ya MoMo 0788 000 001?",
  );
  assert.match(
    await summary({ memo, ride_request_id: RIDE, language: "fr" }),
    /^Payer 3 950 RWF à votre chauffeur \(course Kimironko - Nyabugogo\) /,
  );
  assert.match(
    await summary({ memo, ride_request_id: RIDE, language: "en" }),
    /^Pay 3,950 RWF to your driver \(ride Kimironko - Nyabugogo\) /,
  );
});

Deno.test("momo_charge's read-back of a ride drops a model's English label too", async () => {
  const text = await summary({
    memo: "Ride: Remera - Kacyiru",
    ride_request_id: RIDE,
    language: "rw",
  });
  assert.doesNotMatch(text, /\bRide\b/);
  assert.match(text, /\(urugendo Remera - Kacyiru\)/);
});
