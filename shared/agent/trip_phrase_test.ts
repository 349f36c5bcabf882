import assert from "node:assert/strict";
import { nameGazetteer } from "./text_features.ts";
import { namesTrip, rideAskedTo } from "./trip_phrase.ts";

// A gazetteer of its own: the shapes, not the packs' list, are under test here.
const places = nameGazetteer([
  "Kimironko",
  "Kimironko market",
  "Nyabugogo",
  "Remera",
  "Kicukiro",
  "Kabeza",
  "Kacyiru",
  "town",
  "mu mujyi",
  "centre ville",
  "airport",
  "ku kibuga cy'indege",
]);

Deno.test("an origin and a destination name a trip in en, rw and fr, in either order", () => {
  for (
    const text of [
      "I need a moto from Kimironko to Nyabugogo",
      "how much is it Remera to Kicukiro",
      "to Nyabugogo from Kimironko market pls",
      "kuva Remera kugera Kicukiro",
      "moto kuva i Remera ujya i Kicukiro ni angahe",
      "invana i Kimironko injyana i Nyabugogo",
      "moto ivuye mu mujyi ijya i Kacyiru",
      "je veux une moto de Kimironko à Nyabugogo",
      "un taxi de Remera vers Kicukiro",
      "pour aller à Kicukiro depuis le centre ville",
      "Kabeza -> Kacyiru",
      "moto Kabeza - Kacyiru vite",
    ]
  ) assert.ok(namesTrip(text, places), text);
});

Deno.test("one known end is enough when the other is said in words and the markers are clear", () => {
  for (
    const text of [
      "from Kabeza to my office",
      "from my house to Remera",
      "kuva ku kazi kugera i Kicukiro",
      "depuis Remera jusqu'à mon bureau",
    ]
  ) assert.ok(namesTrip(text, places), text);
});

Deno.test("asking to be taken to a known place names a trip", () => {
  for (
    const text of [
      "take me to the new cinema in Remera",
      "emmène-moi au marché de Kimironko",
      "ntwara i Nyabugogo vuba",
      "I need to get to the airport by 6",
    ]
  ) assert.ok(namesTrip(text, places), text);
  assert.ok(!namesTrip("take me to a real person", places));
});

Deno.test("a pick-up and a drop-off name a trip even between places nobody listed", () => {
  assert.ok(namesTrip("can you pick me at Kinyinya and drop me in Gisozi", places));
  assert.ok(namesTrip("pick us up from the hotel, take me to the stadium", places));
  assert.ok(!namesTrip("can you pick a good wine for me", places));
});

Deno.test("dates, prices, one-sided places and French everyday 'de'/'à' name no trip", () => {
  for (
    const text of [
      "move my booking from saturday to sunday",
      "déplacer ma réservation de samedi à dimanche",
      "a house to rent from 200k to 300k",
      "I'm from Kigali, I want a house to rent",
      "I'm from Remera, I want a house to rent",
      "deliver eggs and milk to Kicukiro",
      "le sac de ciment est à combien à Remera",
      "je veux 2kg de sucre à Kimironko",
      "Kimironko",
      "restaurant near Kacyiru",
    ]
  ) assert.ok(!namesTrip(text, places), text);
});

Deno.test("where someone is and where they are going name a trip without 'from' or 'to'", () => {
  for (
    const text of [
      "I'm at Kimironko market going home to Kacyiru",
      "elle est au Kicukiro et rentre à Remera",
      "ari kuri Kabeza asubira mu rugo i Remera",
      "ndi i Remera ngiye Nyabugogo",
    ]
  ) {
    assert.ok(namesTrip(text, places), text);
  }
  // Being somewhere and having a thing brought elsewhere is no trip for the rider.
  for (
    const text of [
      "my shop is in Remera, deliver cement to Kicukiro",
      "I'm in Remera, is there a pharmacy that delivers to Kacyiru",
      "I'm at Remera",
      // Going to do a thing elsewhere: the thing, not the ride.
      "je suis à Remera, je vais commander à Kicukiro",
      "la pharmacie est à Remera et va livrer à Kicukiro?",
      "ndi i Remera ngiye kugura sima i Kicukiro",
      "I'm at Remera, I need to get cement to Kicukiro",
    ]
  ) {
    assert.ok(!namesTrip(text, places), text);
  }
});

Deno.test("wanting to go to a known place, or to be fetched at one, names a trip", () => {
  for (
    const text of [
      "je veux aller à Nyabugogo",
      "je dois me rendre au centre ville",
      "I want to get to Remera",
      "ndashaka kujya i Kicukiro",
      "venez me prendre à Kabeza",
    ]
  ) {
    assert.ok(namesTrip(text, places), text);
  }
  // Going somewhere to do a thing there is that thing, not the ride.
  for (const text of ["je veux aller manger à Remera", "I need to go buy cement in Kicukiro"]) {
    assert.ok(!namesTrip(text, places), text);
  }
});

Deno.test("a hired vehicle before a destination word is a ride asked for, with what comes before it", () => {
  assert.equal(rideAskedTo("a moto to the pharmacy at Kisimenti pls"), "a moto");
  assert.equal(rideAskedTo("une moto jusqu'à la pharmacie de Kisimenti svp"), "une moto");
  assert.equal(rideAskedTo("moto injyana kuri farumasi"), "moto");
  assert.equal(rideAskedTo("taxi voiture pour aller au marché"), "taxi voiture");
  // Asking to be carried there is a ride too.
  assert.equal(rideAskedTo("ndashaka gutwarwa ku isoko"), "ndashaka gutwarwa");
  assert.equal(rideAskedTo("I need to be taken to the market"), "i ned to be taken");
  assert.equal(rideAskedTo("je veux être déposé au marché"), "je veux etre depose");
  // Someone's own vehicle, or "to" before a verb, is no ride hired.
  assert.equal(rideAskedTo("I want to sell my car to a dealer"), null);
  assert.equal(rideAskedTo("ma voiture jusqu'au garage"), null);
  assert.equal(rideAskedTo("need a car to take my mum"), null);
});
