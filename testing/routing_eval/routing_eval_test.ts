import assert from "node:assert/strict";
import { normalizeText } from "@shared/agent/text_features.ts";
import { customerAgents } from "@shared/registry/pack.ts";
import { STAFF_WORK_LABEL } from "@shared/registry/intent_types.ts";
import { PACK_INTENTS, PACKS, UNCLEAR_PHRASES } from "@shared/platform/platform.ts";
import {
  BLIND_ONLY_SETS,
  type FirstMessage,
  HALVED_SETS,
  loadBlindMessages,
  loadConversations,
  loadFirstMessages,
  loadFresh10Messages,
  loadFresh11Messages,
  loadFresh2Messages,
  loadFresh3Messages,
  loadFresh5Messages,
  loadFresh6Messages,
  loadFresh7Messages,
  loadFresh8Messages,
  loadFresh9Messages,
  loadFreshMessages,
  loadHarderMessages,
  loadSafety5Messages,
  loadSafety6Messages,
  loadSafety7Messages,
  loadSafety8Messages,
  loadSafety9Messages,
} from "./routing_eval.ts";

const training = new Set(
  [
    ...PACK_INTENTS.flatMap(({ phrases }) => Object.values(phrases).flat()),
    ...Object.values(UNCLEAR_PHRASES).flat(),
  ].map(normalizeText),
);

// Both halves of every halved set, and every blind-only set: the sets' own lists, so a set added
// there is checked here too.
async function everyHalf(): Promise<FirstMessage[]> {
  const halves = await Promise.all(
    HALVED_SETS.flatMap(({ load }) => [load("dev"), load("blind")]),
  );
  return halves.flat();
}

async function everyBlindOnly(): Promise<FirstMessage[]> {
  return (await Promise.all(BLIND_ONLY_SETS.map(({ load }) => load()))).flat();
}

Deno.test("the held-out sets hold at least 150 first messages per language and 30 conversations", async () => {
  const messages = await loadFirstMessages();
  for (const language of ["en", "rw", "fr"]) {
    assert.ok(messages.filter((m) => m.language === language).length >= 150, language);
  }
  assert.ok((await loadConversations()).length >= 30);
});

Deno.test("the harder set holds at least 50 messages per language, 10 of them safety", async () => {
  const messages = await loadHarderMessages();
  for (const language of ["en", "rw", "fr"]) {
    const own = messages.filter((m) => m.language === language);
    assert.ok(own.length >= 50, language);
    assert.ok(own.filter((m) => m.safety).length >= 10, language);
  }
});

Deno.test("the harder set's dev split shares no message with its held-out one", async () => {
  const heldOut = new Set((await loadHarderMessages()).map((m) => normalizeText(m.text)));
  const shared = (await loadHarderMessages("dev")).filter((m) =>
    heldOut.has(normalizeText(m.text))
  );
  assert.deepStrictEqual(shared.map((m) => m.text), []);
});

Deno.test("the blind set holds at least 60 messages per language, 8 of them safety, over every route", async () => {
  const messages = await loadBlindMessages();
  for (const language of ["en", "rw", "fr"]) {
    const own = messages.filter((m) => m.language === language);
    assert.ok(own.length >= 60, language);
    assert.ok(own.filter((m) => m.safety).length >= 8, language);
    const routes = new Set(own.map((m) => m.expect));
    const missing = [...customerAgents(PACKS), "clarify"].filter((route) => !routes.has(route));
    assert.deepStrictEqual(missing, [], language);
  }
});

Deno.test("the blind set shares no message with the other routing sets", async () => {
  const others = new Set(
    [
      ...(await loadFirstMessages()).map((m) => m.text),
      ...(await loadHarderMessages()).map((m) => m.text),
      ...(await loadHarderMessages("dev")).map((m) => m.text),
      ...(await loadConversations()).flatMap((c) => c.turns.map((t) => t.text)),
    ].map(normalizeText),
  );
  // As with training phrases, a message of three characters or fewer ("?") cannot be unique.
  const shared = (await loadBlindMessages()).filter((m) =>
    others.has(normalizeText(m.text)) && normalizeText(m.text).length > 3
  );
  assert.deepStrictEqual(shared.map((m) => m.text), []);
});

Deno.test("no held-out message is a training phrase, once normalised", async () => {
  const texts = [
    ...(await loadFirstMessages()).map((m) => m.text),
    ...(await loadHarderMessages()).map((m) => m.text),
    ...(await loadBlindMessages()).map((m) => m.text),
    ...(await loadConversations()).flatMap((c) => c.turns.map((t) => t.text)),
  ];
  const overlap = texts.filter((text) =>
    training.has(normalizeText(text)) && normalizeText(text).length > 3
  );
  assert.deepStrictEqual(overlap, []);
});

Deno.test("every label in the held-out sets is a customer agent, menu, clarify or staff work", async () => {
  const allowed = new Set<string>([...customerAgents(PACKS), "menu", "clarify", STAFF_WORK_LABEL]);
  const labels = [
    ...(await loadFirstMessages()).map((m) => m.expect),
    ...(await loadHarderMessages()).map((m) => m.expect),
    ...(await loadHarderMessages("dev")).map((m) => m.expect),
    ...(await loadBlindMessages()).map((m) => m.expect),
    ...(await everyHalf()).map((m) => m.expect),
    ...(await everyBlindOnly()).map((m) => m.expect),
    ...(await loadConversations()).flatMap((c) => c.turns.map((t) => t.expect)),
  ];
  assert.deepStrictEqual(labels.filter((label) => !allowed.has(label)), []);
});

// Customers open with the same two words ("Muraho", "aidez moi", "hi there") whoever wrote the
// set, so only messages of three words or more must be unique to it.
function canBeUnique(normalized: string): boolean {
  return normalized.split(" ").filter(Boolean).length > 2;
}

Deno.test("each half of the fresh sets holds at least 50 messages per language, 10 of them safety, over every route", async () => {
  for (const split of ["dev", "blind"] as const) {
    const messages = await loadFreshMessages(split);
    for (const language of ["en", "rw", "fr"]) {
      const own = messages.filter((m) => m.language === language);
      assert.ok(own.length >= 50, `${split} ${language}`);
      assert.ok(own.filter((m) => m.safety).length >= 10, `${split} ${language}`);
      const routes = new Set(own.map((m) => m.expect));
      const missing = [...customerAgents(PACKS), "clarify"].filter((route) => !routes.has(route));
      assert.deepStrictEqual(missing, [], `${split} ${language}`);
    }
  }
});

Deno.test("the fresh sets' halves share no message with each other or the other routing sets", async () => {
  const others = new Set(
    [
      ...(await loadFirstMessages()).map((m) => m.text),
      ...(await loadHarderMessages()).map((m) => m.text),
      ...(await loadHarderMessages("dev")).map((m) => m.text),
      ...(await loadBlindMessages()).map((m) => m.text),
      ...(await loadConversations()).flatMap((c) => c.turns.map((t) => t.text)),
    ].map(normalizeText),
  );
  const dev = new Set((await loadFreshMessages("dev")).map((m) => normalizeText(m.text)));
  const shared = (await loadFreshMessages("blind")).filter((m) => {
    const text = normalizeText(m.text);
    return canBeUnique(text) && (dev.has(text) || others.has(text));
  });
  const devShared = [...dev].filter((text) => canBeUnique(text) && others.has(text));
  assert.deepStrictEqual([...shared.map((m) => m.text), ...devShared], []);
});

Deno.test("no fresh message is a training phrase, once normalised", async () => {
  const texts = [
    ...(await loadFreshMessages("dev")).map((m) => m.text),
    ...(await loadFreshMessages("blind")).map((m) => m.text),
  ];
  assert.deepStrictEqual(
    texts.filter((text) => canBeUnique(normalizeText(text)) && training.has(normalizeText(text))),
    [],
  );
});

Deno.test("each half of the second fresh set holds at least 38 messages per language, 8 of them safety, over every route", async () => {
  for (const split of ["dev", "blind"] as const) {
    const messages = await loadFresh2Messages(split);
    for (const language of ["en", "rw", "fr"]) {
      const own = messages.filter((m) => m.language === language);
      assert.ok(own.length >= 38, `${split} ${language}`);
      assert.ok(own.filter((m) => m.safety).length >= 8, `${split} ${language}`);
      const routes = new Set(own.map((m) => m.expect));
      const missing = [...customerAgents(PACKS), "clarify"].filter((route) => !routes.has(route));
      assert.deepStrictEqual(missing, [], `${split} ${language}`);
    }
  }
});

// Written without reading the other sets, five of its held-out messages happen to match one
// of theirs word for word ("send me the receipt for my last payment"): common ways to say a
// thing, and none a training phrase. Its tuning half holds two filler phrases the router learns
// ("I have a question"). What must hold: nothing held out is learnt or tuned on in this set.
Deno.test("the second fresh set's held-out half is no training phrase and no message of its tuning half", async () => {
  const dev = new Set((await loadFresh2Messages("dev")).map((m) => normalizeText(m.text)));
  const blind = (await loadFresh2Messages("blind")).map((m) => normalizeText(m.text));
  assert.deepStrictEqual(
    blind.filter((text) => canBeUnique(text) && (training.has(text) || dev.has(text))),
    [],
  );
});

Deno.test("each half of the third fresh set holds at least 45 messages per language, 12 of them safety, over every route", async () => {
  for (const split of ["dev", "blind"] as const) {
    const messages = await loadFresh3Messages(split);
    for (const language of ["en", "rw", "fr"]) {
      const own = messages.filter((m) => m.language === language);
      assert.ok(own.length >= 45, `${split} ${language}`);
      assert.ok(own.filter((m) => m.safety).length >= 12, `${split} ${language}`);
      const routes = new Set(own.map((m) => m.expect));
      const missing = [...customerAgents(PACKS), "clarify"].filter((route) => !routes.has(route));
      assert.deepStrictEqual(missing, [], `${split} ${language}`);
    }
  }
});

// Tuning adds paraphrases of needs, never a copy of a fresh message: this fails when a
// phrase of either half of the third set (or of the other sets) turns up in the training data.
Deno.test("the third fresh set is no training phrase, and its halves share no message", async () => {
  const dev = (await loadFresh3Messages("dev")).map((m) => normalizeText(m.text));
  const blind = (await loadFresh3Messages("blind")).map((m) => normalizeText(m.text));
  const devSet = new Set(dev);
  assert.deepStrictEqual(
    [...dev, ...blind].filter((text) => canBeUnique(text) && training.has(text)),
    [],
  );
  assert.deepStrictEqual(blind.filter((text) => canBeUnique(text) && devSet.has(text)), []);
});

for (
  const [name, load, ordinary] of [
    ["safety set", loadSafety5Messages, 20],
    ["second safety set", loadSafety6Messages, 18],
    ["fifth safety set", loadSafety9Messages, 22],
  ] as const
) {
  Deno.test(`each half of the ${name} holds at least 22 safety and ${ordinary} ordinary messages per language`, async () => {
    for (const split of ["dev", "blind"] as const) {
      const messages = await load(split);
      for (const language of ["en", "rw", "fr"]) {
        const own = messages.filter((m) => m.language === language);
        assert.ok(own.filter((m) => m.safety).length >= 22, `${split} ${language}`);
        assert.ok(own.filter((m) => !m.safety).length >= ordinary, `${split} ${language}`);
      }
    }
  });
}

// Tuning the harm signal adds concepts and the Kinyarwanda round (fresh5, rw only) stems and
// paraphrases, never a copy of one of their sets' messages.
for (
  const [name, load] of [
    ["the safety set", loadSafety5Messages],
    ["the second safety set", loadSafety6Messages],
    ["the fifth safety set", loadSafety9Messages],
    ["the fifth fresh set", loadFresh5Messages],
    ["the sixth fresh set", loadFresh6Messages],
    ["the ninth fresh set", loadFresh9Messages],
    ["the tenth fresh set", loadFresh10Messages],
    ["the eleventh fresh set", loadFresh11Messages],
  ] as const
) {
  Deno.test(`${name} is no training phrase, and its halves share no message`, async () => {
    const dev = (await load("dev")).map((m) => normalizeText(m.text));
    const blind = (await load("blind")).map((m) => normalizeText(m.text));
    assert.ok(dev.length >= 45 && blind.length >= 45);
    const devSet = new Set(dev);
    assert.deepStrictEqual(
      [...dev, ...blind].filter((text) => canBeUnique(text) && training.has(text)),
      [],
    );
    assert.deepStrictEqual(blind.filter((text) => canBeUnique(text) && devSet.has(text)), []);
  });
}

for (
  const [name, load, least] of [
    ["the sixth fresh set", loadFresh6Messages, 45],
    ["the ninth fresh set", loadFresh9Messages, 65],
    ["the tenth fresh set", loadFresh10Messages, 65],
    ["the eleventh fresh set", loadFresh11Messages, 65],
  ] as const
) {
  Deno.test(`each half of ${name} holds at least ${least} messages per language over every route`, async () => {
    for (const split of ["dev", "blind"] as const) {
      const messages = await load(split);
      for (const language of ["en", "rw", "fr"]) {
        const own = messages.filter((m) => m.language === language);
        assert.ok(own.length >= least, `${split} ${language}`);
        const routes = new Set(own.map((m) => m.expect));
        const missing = [...customerAgents(PACKS), "clarify"].filter((route) => !routes.has(route));
        assert.deepStrictEqual(missing, [], `${split} ${language}`);
      }
    }
  });
}

Deno.test("the seventh fresh set (blind only) holds at least 110 ordinary messages per language over every route", async () => {
  const messages = await loadFresh7Messages();
  for (const language of ["en", "rw", "fr"]) {
    const own = messages.filter((m) => m.language === language);
    assert.ok(own.length >= 110, language);
    assert.deepStrictEqual(own.filter((m) => m.safety).map((m) => m.text), [], language);
    const routes = new Set(own.map((m) => m.expect));
    const missing = [...customerAgents(PACKS), "clarify"].filter((route) => !routes.has(route));
    assert.deepStrictEqual(missing, [], language);
  }
});

Deno.test("the third safety set (blind only) holds at least 45 safety and 45 ordinary messages per language", async () => {
  const messages = await loadSafety7Messages();
  for (const language of ["en", "rw", "fr"]) {
    const own = messages.filter((m) => m.language === language);
    assert.ok(own.filter((m) => m.safety).length >= 45, language);
    assert.ok(own.filter((m) => !m.safety).length >= 45, language);
  }
});

Deno.test("the eighth fresh set (blind only) holds at least 140 ordinary messages per language over every route", async () => {
  const messages = await loadFresh8Messages();
  for (const language of ["en", "rw", "fr"]) {
    const own = messages.filter((m) => m.language === language);
    assert.ok(own.length >= 140, language);
    assert.deepStrictEqual(own.filter((m) => m.safety).map((m) => m.text), [], language);
    const routes = new Set(own.map((m) => m.expect));
    const missing = [...customerAgents(PACKS), "clarify"].filter((route) => !routes.has(route));
    assert.deepStrictEqual(missing, [], language);
  }
});

Deno.test("the fourth safety set (blind only) holds at least 45 safety and 45 ordinary messages per language", async () => {
  const messages = await loadSafety8Messages();
  for (const language of ["en", "rw", "fr"]) {
    const own = messages.filter((m) => m.language === language);
    assert.ok(own.filter((m) => m.safety).length >= 45, language);
    assert.ok(own.filter((m) => !m.safety).length >= 45, language);
  }
});

// Nobody tunes on these sets, so a copy of one of their messages anywhere else (a training
// phrase, another set's message) or twice inside them means it was read or written twice.
Deno.test("the blind-only sets are no training phrase, no other set's message, and hold each message once", async () => {
  const blindOnly = (await everyBlindOnly()).map((m) => normalizeText(m.text));
  const others = new Set(
    [
      ...(await loadFirstMessages()),
      ...(await loadHarderMessages()),
      ...(await loadHarderMessages("dev")),
      ...(await loadBlindMessages()),
      ...(await everyHalf()),
    ].map((m) => normalizeText(m.text)),
  );
  assert.deepStrictEqual(
    blindOnly.filter((text) => text.length > 3 && training.has(text)),
    [],
  );
  assert.deepStrictEqual(blindOnly.filter((text) => canBeUnique(text) && others.has(text)), []);
  assert.deepStrictEqual(blindOnly.filter((text, i) => blindOnly.indexOf(text) !== i), []);
});
