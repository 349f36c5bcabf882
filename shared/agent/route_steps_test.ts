import assert from "node:assert/strict";
import type { AgentReply } from "@shared/registry/pack.ts";
import type { RouteDecision } from "./route_decision.ts";
import {
  clarifyStep,
  classifierStep,
  failingStep,
  hurryStep,
  menuStep,
  modelStep,
  notOfferedStep,
  openWorkStep,
  type RouteFacts,
  routeTurn,
  sensitiveStep,
  staffWorkStep,
  stockStep,
  tapStep,
  topicWordsStep,
  typedTapStep,
} from "./route_steps.ts";

const LANGUAGE = { replyLanguage: "fr", langPref: "fr", languageChanged: false } as const;

function facts(overrides: Partial<RouteFacts> = {}): RouteFacts {
  return {
    input: { wamid: "w1", text: "je veux un taxi" },
    current: "front",
    failures: 0,
    maxFailures: 3,
    roster: {
      frontDesk: "front",
      fallback: "finder",
      handoff: "person",
      menu: [
        { id: "taxi", title: { en: "Taxi", rw: "Tagisi", fr: "Taxi" } },
        { id: "person", title: { en: "A person", rw: "Umuntu", fr: "Une personne" } },
        { id: "food", title: { en: "Food", rw: "Ibiryo", fr: "Repas" } },
      ],
      topicOf: (text) => /cement/.test(text) ? "hardware" : null,
    },
    customer: ["front", "taxi", "food", "person", "hardware"],
    learnt: ["front", "taxi", "food", "person"],
    menuOptions: ["taxi", "food", "absent"],
    clarifyText: (language) => `clarify:${language}`,
    staffWorkText: (language) => `staff work:${language}`,
    backText: (language) => `back:${language}`,
    hurryText: (language) => `hurry:${language}`,
    notOfferedText: (language, service) => `not offered:${service}:${language}`,
    stockedBy: (text) => Promise.resolve(/enveloppes/.test(text) ? "food" : null),
    openWork: () => Promise.resolve([]),
    nothingOpenText: (language) => `nothing open:${language}`,
    whichWorkText: (language) => `which:${language}`,
    offered: [{ text: "Où voulez-vous aller ?" }],
    helpReply: (language, asking) => ({ text: `help:${language}${asking ? ":asking" : ""}` }),
    askModel: () => Promise.resolve(undefined),
    ...overrides,
  };
}

function route(agent: string, extra: Partial<{ urgent: boolean; place: string }> = {}) {
  return {
    ...LANGUAGE,
    kind: "route",
    agent,
    urgent: extra.urgent ?? false,
    switched: false,
    confidence: 0.9,
    ...(extra.place ? { place: extra.place } : {}),
  } satisfies RouteDecision;
}

const CLARIFY = { ...LANGUAGE, kind: "clarify", options: ["taxi", "food"] } satisfies RouteDecision;

Deno.test("failingStep() hands an agent that keeps failing to a person, and passes otherwise", () => {
  assert.deepEqual(failingStep(facts({ failures: 3 })), { agent: "person", escalation: "failing" });
  assert.equal(failingStep(facts({ failures: 2 })), null);
});

Deno.test("tapStep() enters a tapped service afresh, keeps other taps and locations, passes words", () => {
  const tap = (choice: string) =>
    tapStep(facts({ current: "food", input: { wamid: "w", text: "", choice } }));
  assert.deepEqual(tap("agent:taxi"), { agent: "taxi", fresh: true });
  // Not a customer's agent: the tap answers the current flow.
  assert.deepEqual(tap("agent:staff_only"), { agent: "food" });
  assert.deepEqual(tap("venue:1"), { agent: "food" });
  const location = { latitude: -1.9, longitude: 30.1 };
  assert.deepEqual(tapStep(facts({ input: { wamid: "w", text: "", location } })), {
    agent: "finder",
  });
  assert.deepEqual(tapStep(facts({ current: "taxi", input: { wamid: "w", text: "", location } })), {
    agent: "taxi",
  });
  assert.equal(tapStep(facts()), null);
});

Deno.test("menuStep() goes to the front desk, picks a row as its tap, stays, or passes", () => {
  const at = facts({ current: "taxi", input: { wamid: "w1", text: "menu" } });
  assert.deepEqual(menuStep(at, { ...LANGUAGE, kind: "menu" }), {
    agent: "front",
    fresh: true,
    input: { wamid: "w1", text: "" },
  });
  assert.deepEqual(menuStep(at, { ...LANGUAGE, kind: "pick", option: 2, agent: "food" }), {
    agent: "food",
    fresh: true,
    input: { wamid: "w1", text: "", choice: "agent:food" },
  });
  assert.deepEqual(menuStep(at, { ...LANGUAGE, kind: "stay", agent: "taxi" }), { agent: "taxi" });
  assert.equal(menuStep(at, route("food")), null);
  assert.equal(menuStep(at, CLARIFY), null);
});

Deno.test("sensitiveStep() sends an urgent route to a person, and passes any other", () => {
  assert.deepEqual(sensitiveStep(facts(), route("person", { urgent: true })), {
    agent: "person",
    escalation: "sensitive",
  });
  assert.equal(sensitiveStep(facts(), route("taxi")), null);
});

Deno.test("topicWordsStep() lets an agent the classifier never learnt claim its words", () => {
  const cement = facts({ input: { wamid: "w", text: "cement at Nyabugogo" } });
  assert.deepEqual(topicWordsStep(cement, CLARIFY), { agent: "hardware" });
  // Over the classifier's own answer too; the place goes with it when both agree.
  assert.deepEqual(topicWordsStep(cement, route("food")), { agent: "hardware" });
  assert.deepEqual(topicWordsStep(cement, route("hardware", { place: "Nyabugogo" })), {
    agent: "hardware",
    place: "Nyabugogo",
  });
  assert.equal(topicWordsStep(facts(), CLARIFY), null);
  assert.equal(
    topicWordsStep(facts({ ...cement, learnt: ["hardware"] }), CLARIFY),
    null,
  );
});

Deno.test("classifierStep() takes a sure route with its place, and passes an unsure one", () => {
  assert.deepEqual(classifierStep(facts(), route("taxi")), { agent: "taxi" });
  assert.deepEqual(classifierStep(facts(), route("taxi", { place: "Kimironko" })), {
    agent: "taxi",
    place: "Kimironko",
  });
  assert.equal(classifierStep(facts(), CLARIFY), null);
});

Deno.test("modelStep() asks the model only when the classifier is unsure, in the reply language", async () => {
  const asked: string[] = [];
  const model = (answer: string | null | undefined) =>
    facts({
      askModel: (language) => {
        asked.push(language);
        return Promise.resolve(answer);
      },
    });
  assert.deepEqual(await modelStep(model("food"), CLARIFY), { agent: "food" });
  assert.equal(await modelStep(model(null), CLARIFY), null);
  assert.equal(await modelStep(model(undefined), CLARIFY), null);
  assert.equal(await modelStep(model("food"), route("taxi")), null);
  assert.deepEqual(asked, ["fr", "fr", "fr"]);
});

Deno.test("clarifyStep() asks at the front desk with the menu's titles in the reply language", () => {
  assert.deepEqual(clarifyStep(facts(), CLARIFY), {
    agent: "front",
    fresh: true,
    replies: [{
      text: "clarify:fr",
      rows: [{ id: "agent:taxi", title: "Taxi" }, { id: "agent:food", title: "Repas" }],
    }],
  });
});

Deno.test("routeTurn() runs the steps in order and reads the words only when no tap routed", async () => {
  let decided = 0;
  const decide = (decision: RouteDecision) => () => {
    decided++;
    return decision;
  };
  const tapped = await routeTurn(
    facts({ input: { wamid: "w", text: "", choice: "agent:food" } }),
    decide(route("taxi")),
  );
  assert.deepEqual(tapped, { routed: { agent: "food", fresh: true }, decision: null });
  assert.equal(decided, 0);
  // Sensitive before the classifier; the model only for an unsure decision.
  const urgent = route("person", { urgent: true });
  assert.deepEqual((await routeTurn(facts(), decide(urgent))).routed, {
    agent: "person",
    escalation: "sensitive",
  });
  const unsure = await routeTurn(
    facts({ askModel: () => Promise.resolve("food") }),
    decide(CLARIFY),
  );
  assert.deepEqual(unsure, { routed: { agent: "food" }, decision: CLARIFY });
  assert.equal((await routeTurn(facts(), decide(CLARIFY))).routed.replies?.[0].text, "clarify:fr");
  assert.equal(decided, 3);
});

Deno.test("staffWorkStep() tells a customer asking for staff work that the team does it, in their language, and offers a person", async () => {
  const decision = { ...LANGUAGE, kind: "staff_work" } satisfies RouteDecision;
  assert.deepEqual(staffWorkStep(facts(), decision), {
    agent: "front",
    fresh: true,
    replies: [{
      text: "staff work:fr",
      buttons: [{ id: "agent:person", title: "Une personne" }],
    }],
  });
  assert.equal(staffWorkStep(facts(), CLARIFY), null);
  // In the pipeline it answers before the model is asked or the services are listed.
  const { routed } = await routeTurn(facts(), () => decision);
  assert.equal(routed.replies?.[0].text, "staff work:fr");
});

Deno.test("help asked mid-flow says where the person is and asks the flow's question again", async () => {
  const stay = { ...LANGUAGE, kind: "stay", agent: "taxi" } as const;
  for (const text of ["aide", "Aide-moi stp", "?"]) {
    const { routed } = await routeTurn(
      facts({ current: "taxi", input: { wamid: "w2", text } }),
      () => stay,
    );
    assert.deepEqual(routed, {
      agent: "taxi",
      replies: [{ text: "help:fr:asking" }, { text: "Où voulez-vous aller ?" }],
    }, text);
  }
  // With no question pending (the flow's last message was no question), help says where the
  // person is without "answer the question below", and repeats nothing.
  for (
    const offered of [[], [{ text: "Votre course est terminée. Merci !" }]] as AgentReply[][]
  ) {
    const { routed } = await routeTurn(
      facts({ current: "taxi", input: { wamid: "w5", text: "aide" }, offered }),
      () => stay,
    );
    assert.deepEqual(routed, { agent: "taxi", replies: [{ text: "help:fr" }] });
  }
  // A question followed by how to answer it is still a question.
  const { routed: located } = await routeTurn(
    facts({
      current: "taxi",
      input: { wamid: "w7", text: "aide" },
      offered: [{ text: "Où vous prendre ? Partagez votre position." }],
    }),
    () => stay,
  );
  assert.equal(located.replies?.[0].text, "help:fr:asking");
  // Choices to tap wait for an answer as much as a question does.
  const { routed: tapping } = await routeTurn(
    facts({
      current: "taxi",
      input: { wamid: "w6", text: "help" },
      offered: [{ text: "Moto or cab", buttons: [{ id: "v:moto", title: "Moto" }] }],
    }),
    () => stay,
  );
  assert.equal(tapping.replies?.[0].text, "help:fr:asking");
  // At the front desk, and for a flow's own answer, help changes nothing.
  const { routed: atDesk } = await routeTurn(
    facts({ input: { wamid: "w3", text: "aide" } }),
    () => ({ ...LANGUAGE, kind: "menu" }),
  );
  assert.equal(atDesk.replies, undefined);
  const { routed: answer } = await routeTurn(
    facts({ current: "taxi", input: { wamid: "w4", text: "Remera" } }),
    () => stay,
  );
  assert.deepEqual(answer, { agent: "taxi" });
});

Deno.test("openWorkStep: 'move it' goes to the agent holding the person's one open work", async () => {
  const asked: Array<string | undefined> = [];
  const routed = await openWorkStep(
    facts({
      openWork: (_language, about) => {
        asked.push(about);
        return Promise.resolve([{ agent: "food", summary: "votre table samedi 19:00" }]);
      },
    }),
    { ...LANGUAGE, kind: "open_work", change: "cancel" },
  );
  // The verb goes with it: the graph asks to confirm that very cancel.
  assert.deepEqual(routed, { agent: "food", fresh: true, change: "cancel" });
  assert.deepEqual(asked, [undefined]);
});

Deno.test("openWorkStep: several open works are asked about by name, in the person's language", async () => {
  const routed = await openWorkStep(
    facts({
      openWork: () =>
        Promise.resolve([
          { agent: "food", summary: "votre table samedi" },
          { agent: "taxi", summary: "votre moto vers Remera" },
        ]),
    }),
    { ...LANGUAGE, kind: "open_work", change: "move" },
  );
  assert.equal(routed?.agent, "front");
  assert.equal(
    routed?.replies?.[0].text,
    "which:fr\n• votre table samedi\n• votre moto vers Remera",
  );
  // Each row carries the verb, so the pick moves that work rather than entering the service.
  assert.deepEqual(routed?.replies?.[0].rows, [
    { id: "work:move:food", title: "Repas" },
    { id: "work:move:taxi", title: "Taxi" },
  ]);
  const picked = tapStep(facts({ input: { wamid: "w9", text: "Taxi", choice: "work:move:taxi" } }));
  assert.deepEqual(picked, { agent: "taxi", fresh: true, change: "move" });
  const cancelling = tapStep(
    facts({ input: { wamid: "w9", text: "Taxi", choice: "work:cancel:taxi" } }),
  );
  assert.deepEqual(cancelling, { agent: "taxi", fresh: true, change: "cancel" });
  // A row naming no customer agent is the current flow's answer, as any other tap.
  assert.deepEqual(
    tapStep(facts({ input: { wamid: "w9", text: "x", choice: "work:move:nobody" } })),
    { agent: "front" },
  );
});

Deno.test("openWorkStep: with nothing open it says so and shows the menu, never a search", async () => {
  const asked: Array<string | undefined> = [];
  const routed = await openWorkStep(
    facts({
      openWork: (_language, about) => {
        asked.push(about);
        return Promise.resolve([]);
      },
    }),
    { ...LANGUAGE, kind: "open_work", change: "cancel", about: "taxi" },
  );
  assert.deepEqual(asked, ["taxi"]);
  assert.equal(routed?.agent, "front");
  assert.equal(routed?.replies?.[0].text, "nothing open:fr");
  assert.deepEqual(routed?.replies?.[0].rows?.map((row) => row.id), ["agent:taxi", "agent:food"]);
  assert.equal(await openWorkStep(facts(), CLARIFY), null);
});

Deno.test("openWorkStep: typed inside a flow, it goes to the open work, or back to the flow when nothing is open", async () => {
  const inFlow = { ...LANGUAGE, kind: "open_work", change: "move", inFlow: true } as const;
  assert.deepEqual(await openWorkStep(facts({ current: "food" }), inFlow), { agent: "food" });
  const open = facts({
    current: "food",
    openWork: () => Promise.resolve([{ agent: "food", summary: "Order A-1001" }]),
  });
  assert.deepEqual(await openWorkStep(open, inFlow), {
    agent: "food",
    fresh: true,
    change: "move",
  });
});

Deno.test("staffWorkStep() inside a flow answers beside it: the flow is kept and its question asked again", () => {
  const decision = { ...LANGUAGE, kind: "staff_work", inFlow: true } satisfies RouteDecision;
  const question = { text: "Combien ?", buttons: [{ id: "qty:1", title: "1" }] };
  const routed = staffWorkStep(facts({ current: "food", offered: [question] }), decision);
  assert.deepEqual(routed, {
    agent: "food",
    replies: [
      { text: "staff work:fr", buttons: [{ id: "agent:person", title: "Une personne" }] },
      { ...question, text: "back:fr\nCombien ?" },
    ],
  });
  // A menu listed above its rows: only the paragraph that asks is said again, with the rows.
  const menu = {
    text: "Café Nyamirambo :\n1. Brochette — 1 500 RWF\n2. Fanta — 800 RWF\n\nTouchez un article.",
    rows: [{ id: "item:1", title: "Brochette" }, { id: "item:2", title: "Fanta" }],
  };
  const shown = { text: "Voici la carte.", rows: [{ id: "x", title: "x" }] };
  const short = staffWorkStep(facts({ current: "food", offered: [shown, menu] }), decision);
  assert.deepEqual(short?.replies?.slice(1), [{ ...menu, text: "back:fr\nTouchez un article." }]);
  // Without choices the text is all there is to answer from: said whole.
  const typed = { text: "Articles :\n1. Brochette\n\nLesquels voulez-vous ?\n\nEx. : 2 x 1" };
  const whole = staffWorkStep(facts({ current: "food", offered: [typed] }), decision);
  assert.equal(whole?.replies?.[1]?.text, `back:fr\n${typed.text}`);
  // A told message that asks nothing is not repeated.
  const told = staffWorkStep(facts({ current: "food", offered: [{ text: "Merci." }] }), decision);
  assert.equal(told?.replies?.length, 1);
  assert.equal(told?.fresh, undefined);
});

Deno.test("stockStep() sends an unplaced first message to the agent whose stock names its thing", async () => {
  const said = (text: string) => facts({ input: { wamid: "w", text } });
  const greeting = { ...route("front"), frontDeskOwn: true as const };
  assert.deepEqual(await stockStep(said("Bonjour, je voudrais des enveloppes"), route("front")), {
    agent: "food",
    fresh: true,
  });
  assert.deepEqual(await stockStep(said("des enveloppes"), CLARIFY), {
    agent: "food",
    fresh: true,
  });
  const notOffered = { ...LANGUAGE, kind: "not_offered", service: "taxi" } satisfies RouteDecision;
  assert.deepEqual(await stockStep(said("enveloppes"), notOffered), { agent: "food", fresh: true });
  // Nothing stocked, a greeting alone, a sure route or a flow under way: the step passes.
  assert.equal(await stockStep(said("un taxi"), CLARIFY), null);
  assert.equal(await stockStep(said("enveloppes"), greeting), null);
  assert.equal(await stockStep(said("enveloppes"), route("taxi")), null);
  assert.equal(
    await stockStep(facts({ current: "taxi", input: { wamid: "w", text: "enveloppes" } }), CLARIFY),
    null,
  );
});

Deno.test("notOfferedStep() says the service is not offered, with the menu to pick from", () => {
  const notOffered = { ...LANGUAGE, kind: "not_offered", service: "taxi" } satisfies RouteDecision;
  const routed = notOfferedStep(facts(), notOffered);
  assert.equal(routed?.agent, "front");
  assert.equal(routed?.replies?.[0].text, `not offered:taxi:${LANGUAGE.replyLanguage}`);
  assert.ok(routed?.replies?.[0].rows?.length);
  assert.equal(notOfferedStep(facts(), CLARIFY), null);
});

Deno.test("typedTapStep() takes a button's title typed as its tap, and leaves real answers to the words", async () => {
  const offered = [{
    text: "Je ne peux pas donner de conseil juridique.",
    buttons: [
      { id: "agent:person", title: "Parler à quelqu'un" },
      { id: "legal:continue", title: "Continuer" },
    ],
  }];
  const typed = (text: string) =>
    typedTapStep(facts({ current: "legal", offered, input: { wamid: "w", text } }));
  // The flow's own button: the flow gets the tap as WhatsApp sends it (its id, its title).
  assert.deepEqual(typed("continuer"), {
    agent: "legal",
    input: { wamid: "w", text: "Continuer", choice: "legal:continue" },
  });
  // A button to another agent enters it afresh.
  assert.deepEqual(typed("parler a quelqun"), {
    agent: "person",
    fresh: true,
    input: { wamid: "w", text: "Parler à quelqu'un", choice: "agent:person" },
  });
  assert.equal(typed("je veux continuer mon dossier"), null);
  assert.equal(typed("2"), null);
  // A real tap is the tap step's; routeTurn reads no words for a typed title.
  assert.equal(
    typedTapStep(facts({ offered, input: { wamid: "w", text: "x", choice: "legal:continue" } })),
    null,
  );
  const { routed, decision } = await routeTurn(
    facts({ current: "legal", offered, input: { wamid: "w", text: "CONTINUER" } }),
    () => {
      throw new Error("the words of a typed title are not read");
    },
  );
  assert.equal(decision, null);
  assert.equal(routed.input?.choice, "legal:continue");
});

Deno.test("hurryStep() hears haste inside a flow: a person offered, the flow's question again, short", () => {
  const hurry = { ...LANGUAGE, kind: "hurry" } satisfies RouteDecision;
  const question = {
    text: "Repas :\n1. Brochette\n\nTouchez un article.",
    rows: [{ id: "item:1", title: "Brochette" }],
  };
  assert.deepEqual(hurryStep(facts({ current: "food", offered: [question] }), hurry), {
    agent: "food",
    replies: [
      { text: "hurry:fr", buttons: [{ id: "agent:person", title: "Une personne" }] },
      { ...question, text: "back:fr\nTouchez un article." },
    ],
  });
  assert.equal(hurryStep(facts(), CLARIFY), null);
  // An instruction waited on, though it asks no question, is said again.
  const photo = { text: "Send a photo of the registration card. (0 = menu)" };
  assert.deepEqual(hurryStep(facts({ current: "food", offered: [photo] }), hurry)?.replies?.[1], {
    text: `back:fr\n${photo.text}`,
  });
});
