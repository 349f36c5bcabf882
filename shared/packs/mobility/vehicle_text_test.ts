import assert from "node:assert/strict";
import { vehicleText } from "./vehicle_text.ts";

Deno.test("a vehicle's colour is read in the rider's language; its make and model are not", () => {
  assert.equal(vehicleText("Bajaj Boxer, black", "rw"), "Bajaj Boxer, umukara");
  assert.equal(vehicleText("Bajaj Boxer, black", "fr"), "Bajaj Boxer, noir");
  assert.equal(vehicleText("TVS Apache, Red", "fr"), "TVS Apache, rouge");
  assert.equal(vehicleText("Bajaj Boxer, black", "en"), "Bajaj Boxer, black");
  assert.equal(vehicleText("Toyota Corolla", "rw"), "Toyota Corolla");
});
