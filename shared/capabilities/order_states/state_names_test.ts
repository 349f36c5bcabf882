import assert from "node:assert/strict";
import { englishWords } from "@testing/english_words.ts";
import { LANGUAGES } from "@shared/contract/language.ts";
import {
  ORDER_STATE_NAMES,
  ORDER_STATUSES,
  orderStateName,
  PAYMENT_STATE_NAMES,
  PAYMENT_STATUSES,
  paymentStateName,
} from "./mod.ts";

Deno.test("every order and payment state has a name in every language", () => {
  for (const status of ORDER_STATUSES) {
    for (const language of LANGUAGES) {
      assert.ok(ORDER_STATE_NAMES[status][language].trim(), `${status}.${language}`);
    }
  }
  for (const status of PAYMENT_STATUSES) {
    for (const language of LANGUAGES) {
      assert.ok(PAYMENT_STATE_NAMES[status][language].trim(), `${status}.${language}`);
    }
  }
});

Deno.test("the payment states are exactly those the database allows", async () => {
  const sql = await Deno.readTextFile(
    new URL(
      "../../../supabase/migrations/20261123000600_commerce_mobility_payments.sql",
      import.meta.url,
    ),
  );
  const allowed = sql.match(/check \(payment_status in \(([^)]*)\)\)/)?.[1];
  assert.ok(allowed, "orders.payment_status check not found");
  assert.deepEqual(
    allowed.split(",").map((value) => value.trim().replaceAll("'", "")).sort(),
    [...PAYMENT_STATUSES].sort(),
  );
});

Deno.test("no rw or fr state name is English", () => {
  const tables = [ORDER_STATE_NAMES, PAYMENT_STATE_NAMES] as const;
  const leaks = tables.flatMap((table) =>
    Object.entries(table).flatMap(([status, names]) =>
      (["rw", "fr"] as const).flatMap((language) =>
        englishWords(names[language]).length ? [`${status}.${language}: ${names[language]}`] : []
      )
    )
  );
  assert.deepEqual(leaks, []);
});

Deno.test("rw order states agree with itumiza (class ri-), one form each", () => {
  // The three earlier tables mixed ri-, i- and yi- forms for the same state.
  for (const status of ORDER_STATUSES) {
    assert.match(ORDER_STATE_NAMES[status].rw, /^r[iy]/, status);
  }
});

Deno.test("an unknown state is shown as it is, never dropped", () => {
  assert.equal(orderStateName("archived", "rw"), "archived");
  assert.equal(paymentStateName("refunded", "fr"), "refunded");
  assert.equal(orderStateName("pending", "en"), "waiting for the venue");
  assert.equal(paymentStateName("pending", "en"), "waiting for MoMo");
});
