import assert from "node:assert/strict";
import { askedWeekday, asksHoliday, asksOpeningHours, hoursAnswer } from "./opening_hours.ts";

const WAREHOUSE = {
  name: "Beaver Paper Warehouse",
  hours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, opens: "08:00:00", closes: "18:00:00" }))
    .concat([{ weekday: 6, opens: "09:00:00", closes: "13:00:00" }]),
};

Deno.test("an opening-hours question is heard in en, fr and rw; other requests are not", () => {
  for (
    const text of [
      "are you open on Sunday?",
      "What time do you close today?",
      "opening hours please",
      "vous ouvrez à quelle heure ?",
      "Êtes-vous ouverts le samedi ?",
      "quels sont vos horaires",
      "mufungura saa ngahe?",
      "mukinga saa ngahe?",
      "murakora ku cyumweru?",
    ]
  ) assert.ok(asksOpeningHours(text), text);
  for (
    const text of [
      "how much is A4 paper?",
      "I want a moto",
      "je voudrais des enveloppes C5",
      "ndashaka impapuro A4",
      "mukora delivery i Remera?",
      "my order is late",
    ]
  ) assert.ok(!asksOpeningHours(text), text);
});

Deno.test("the day asked is read in each language, today and tomorrow from the clock's day", () => {
  assert.equal(askedWeekday("are you open on Sunday?", 3), 7);
  assert.equal(askedWeekday("ouvert le samedi ?", 3), 6);
  assert.equal(askedWeekday("murakora ku cyumweru?", 3), 7);
  assert.equal(askedWeekday("open tomorrow?", 7), 1);
  assert.equal(askedWeekday("vous ouvrez aujourd'hui ?", 2), 2);
  assert.equal(askedWeekday("vous ouvrez à quelle heure ?", 2), null);
});

Deno.test("hours are answered from the data: the day asked, or the week and whether open now", () => {
  const sunday = hoursAnswer({
    places: [WAREHOUSE],
    language: "en",
    now: { weekday: 3, minutes: 600 },
    text: "are you open on Sunday?",
  });
  // A closed day names when it opens next, in the person's language.
  assert.equal(
    sunday,
    "Beaver Paper Warehouse is closed on Sunday. It opens next on Monday at 08:00.",
  );
  assert.equal(
    hoursAnswer({
      places: [WAREHOUSE],
      language: "rw",
      now: { weekday: 3, minutes: 600 },
      text: "murakora ku cyumweru?",
    }),
    "Beaver Paper Warehouse ntikora ku cyumweru. Izongera gufungura kuwa mbere saa 08:00.",
  );
  assert.equal(
    hoursAnswer({
      places: [WAREHOUSE],
      language: "fr",
      now: { weekday: 3, minutes: 600 },
      text: "vous ouvrez dimanche ?",
    }),
    "Beaver Paper Warehouse est fermé le dimanche. Il rouvre le lundi à 08:00.",
  );
  const saturday = hoursAnswer({
    places: [WAREHOUSE],
    language: "fr",
    now: { weekday: 3, minutes: 600 },
    text: "vous ouvrez samedi ?",
  });
  assert.equal(saturday, "Beaver Paper Warehouse est ouvert le samedi de 09:00 à 13:00.");
  // Saturday 15:00: closed now, opens on Monday at 08:00 (Sunday has no hours).
  const week = hoursAnswer({
    places: [WAREHOUSE],
    language: "rw",
    now: { weekday: 6, minutes: 15 * 60 },
    text: "mufungura saa ngahe?",
  });
  assert.match(week, /• kuwa mbere–kuwa gatanu: 08:00–18:00\n• kuwa gatandatu: 09:00–13:00\n/);
  assert.match(week, /ku cyumweru: irafunze/);
  assert.match(week, /Ubu irafunze; izafungura kuwa mbere saa 08:00\./);
  // Tuesday 07:00: opens later today; 10:00: open until 18:00.
  const early = { places: [WAREHOUSE], language: "en" as const, text: "what time do you open?" };
  assert.match(
    hoursAnswer({ ...early, now: { weekday: 2, minutes: 7 * 60 } }),
    /Closed now; opens today at 08:00\./,
  );
  assert.match(
    hoursAnswer({ ...early, now: { weekday: 2, minutes: 10 * 60 } }),
    /Open now, until 18:00\./,
  );
  // No hours on record: said so, never invented.
  assert.match(
    hoursAnswer({
      ...early,
      places: [{ name: "Depot", hours: [] }],
      now: { weekday: 2, minutes: 0 },
    }),
    /I do not have Depot's opening hours/,
  );
});

Deno.test("a public holiday asked is said to be off the record before the usual hours, never answered as an ordinary day", () => {
  for (
    const [language, text] of [
      ["fr", "Vous êtes ouverts le 1er janvier ?"],
      ["en", "are you open on Christmas day?"],
      ["rw", "mukora ku munsi mukuru w'intwari?"],
      ["en", "open on the public holiday tomorrow?"],
    ] as const
  ) {
    assert.ok(asksHoliday(text), text);
    const answer = hoursAnswer({
      places: [WAREHOUSE],
      language,
      now: { weekday: 3, minutes: 600 },
      text,
    });
    assert.match(
      answer,
      /^(Hours on public holidays are not on record|Amasaha yo ku minsi mikuru ntayo dufite|Les horaires des jours fériés ne sont pas enregistrés)/,
      text,
    );
    assert.match(answer, /Beaver Paper Warehouse/, text);
  }
  // Asked in Kinyarwanda as "do you work on the holiday?", it is an hours question at all.
  for (const text of ["Mukora ku munsi mukuru w'intwari?", "murakora kuri Noheli?"]) {
    assert.ok(asksOpeningHours(text), text);
  }
  for (const text of ["are you open on Sunday?", "vous ouvrez à quelle heure ?", "mukora ryari?"]) {
    assert.ok(!asksHoliday(text), text);
  }
});
