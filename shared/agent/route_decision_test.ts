import assert from "node:assert/strict";
import { PACK_INTENTS, PACKS, UNCLEAR_PHRASES } from "@shared/platform/platform.ts";
import { platformRouter } from "@shared/platform/router.ts";
import { decideRoute, type RoutingState, trainRouteContext } from "./route_decision.ts";
import { createRouter } from "./router.ts";

// The agents come from the packs, as in production: the router keeps no list of its own.
const context = createRouter({ packs: PACKS, unclear: UNCLEAR_PHRASES });
const MAIN_MENU = context.agents.menu;
const fresh: RoutingState = { agent: null, atMenu: false, menuOptions: [], langPref: null };
const inFlow = (agent: string, langPref: RoutingState["langPref"] = "en"): RoutingState => ({
  agent,
  atMenu: false,
  menuOptions: [],
  langPref,
});
const atMenu: RoutingState = { agent: null, atMenu: true, menuOptions: MAIN_MENU, langPref: "rw" };

Deno.test("menu words and their typos go back to the main menu from anywhere", () => {
  for (
    const text of [
      "menu",
      "0",
      "ahabanza",
      "accueil",
      "menyu",
      "acceuil",
      "Main menu",
      "subira ahabanza",
      "home",
    ]
  ) {
    assert.deepStrictEqual(decideRoute(text, inFlow("pharmacy"), context).kind, "menu", text);
  }
});

Deno.test("a restaurant's menu goes to Waiter AI, not the main menu", () => {
  for (const text of ["show me the menu at Bourbon", "menu ya Bourbon", "la carte du Bourbon"]) {
    const decision = decideRoute(text, fresh, context);
    assert.deepStrictEqual(decision.kind === "route" && decision.agent, "waiter_ai", text);
  }
});

Deno.test("a number at a menu picks that option and keeps the sticky language", () => {
  const decision = decideRoute("2", atMenu, context);
  assert.deepStrictEqual(decision.kind === "pick" && decision.agent, MAIN_MENU[1]);
  assert.deepStrictEqual(decision.replyLanguage, "rw");
  assert.deepStrictEqual(decideRoute("42", atMenu, context).kind, "menu");
  assert.deepStrictEqual(decideRoute("2", inFlow("waiter_ai"), context).kind, "stay");
});

Deno.test("sensitive topics go urgently to a person, also mid-flow, in every language", () => {
  for (
    const text of [
      "someone stole my phone",
      "on m'a volé mon sac",
      "banyibye",
      "telefoni yanjye yibwe",
      "urgent",
      "mumfashe vuba",
      "help me quickly",
      "vite, aidez moi",
      "bankubise",
    ]
  ) {
    const decision = decideRoute(text, inFlow("waiter_ai"), context);
    assert.deepStrictEqual(decision.kind === "route" && decision.agent, "support_handoff", text);
    assert.deepStrictEqual(decision.kind === "route" && decision.urgent, true, text);
  }
  // Speed alone is not a cry for help, nor is a thing wanted in a hurry.
  for (const text of ["moto vuba", "Panadol asap", "taxi vite", "a taxi quickly please"]) {
    const decision = decideRoute(text, fresh, context);
    assert.deepStrictEqual(decision.kind === "route" && decision.urgent, false, text);
  }
  assert.deepStrictEqual(
    decideRoute("ndashaka moto ijya i Remera vuba", inFlow("mobility_orchestrator", "rw"), context)
      .kind,
    "stay",
  );
});

Deno.test("haste alone inside a flow is heard there: no item, no answer, no cry for help", () => {
  for (
    const [text, language] of [
      ["quickly please", "en"],
      ["hurry up pls", "en"],
      ["vite svp", "fr"],
      ["dépêchez-vous s'il vous plaît", "fr"],
      ["haraka", "rw"],
      ["vuba cyane nkwinginze", "rw"],
    ] as const
  ) {
    const decision = decideRoute(text, inFlow("waiter_ai", language), context);
    assert.equal(decision.kind, "hurry", text);
    assert.equal(decision.replyLanguage, language, text);
  }
  // A call for help, a danger, or "urgent" alone stay cries; haste with a thing is an order.
  for (const text of ["help me quickly", "mumfashe vuba", "urgent", "vite, aidez moi"]) {
    const decision = decideRoute(text, inFlow("waiter_ai"), context);
    assert.equal(decision.kind === "route" && decision.urgent, true, text);
  }
  assert.notEqual(
    decideRoute("2 brochettes vite", inFlow("waiter_ai", "fr"), context).kind,
    "hurry",
  );
  // Outside a flow (at the menu, with a person) haste is read as before.
  assert.notEqual(decideRoute("quickly please", fresh, context).kind, "hurry");
  assert.notEqual(decideRoute("haraka", inFlow("support_handoff", "rw"), context).kind, "hurry");
});

Deno.test("a change of mind switches agent; an answer inside the flow stays", () => {
  for (
    const text of [
      "actually I need a taxi",
      "en fait je veux plutôt un taxi",
      "oya, ahubwo nshaka moto",
    ]
  ) {
    const decision = decideRoute(text, inFlow("waiter_ai"), context);
    assert.deepStrictEqual(
      decision.kind === "route" && decision.agent,
      "mobility_orchestrator",
      text,
    );
    assert.deepStrictEqual(decision.kind === "route" && decision.switched, true, text);
  }
  assert.deepStrictEqual(
    decideRoute("2 brochettes and a fanta", inFlow("waiter_ai"), context).kind,
    "stay",
  );
});

Deno.test("an agent that holds a message keeps it in its conversation, whatever topic it names", () => {
  const live = platformRouter();
  // Legal Intake holds requests for advice: "should I pay him?" is its to refuse, not a payment.
  for (
    const text of [
      "dites-moi juste oui ou non, dois-je le payer ?",
      "mbwira gusa yego cyangwa oya, ngomba kumwishyura?",
      "just tell me yes or no, should I pay him?",
    ]
  ) {
    assert.deepStrictEqual(decideRoute(text, inFlow("legal_intake"), context).kind, "stay", text);
    // As a first message the same words are a payment question (to the live router, which reads
    // the clause that asks): the hold keeps them, not the words.
    const first = decideRoute(text, fresh, live);
    assert.deepStrictEqual(first.kind === "route" && first.agent, "payments", text);
  }
  // A marked change of mind still leaves.
  const leaving = decideRoute("actually I need a taxi", inFlow("legal_intake"), context);
  assert.deepStrictEqual(leaving.kind === "route" && leaving.agent, "mobility_orchestrator");
});

Deno.test("a message naming an option the agent offered answers it; a change of mind still switches", () => {
  const askedUse = { ...inFlow("insurance", "fr"), offered: ["Privé", "Commercial (taxi…)"] };
  for (const text of ["c'est un taxi", "it is a taxi I drive", "ni taxi ya moto"]) {
    assert.deepStrictEqual(decideRoute(text, askedUse, context).kind, "stay", text);
  }
  // As a first message the same words are a ride: the rule is the offer, not the word.
  const unasked = decideRoute("it is a taxi I drive", fresh, context);
  assert.deepStrictEqual(unasked.kind === "route" && unasked.agent, "mobility_orchestrator");
  const changed = decideRoute("actually I need a taxi now", askedUse, context);
  assert.deepStrictEqual(changed.kind === "route" && changed.agent, "mobility_orchestrator");
});

Deno.test("an unclear first message gets a clarifying list of services", () => {
  const decision = decideRoute("hmm", fresh, context);
  assert.deepStrictEqual(decision.kind, "clarify");
  assert.deepStrictEqual(decision.kind === "clarify" && decision.options, MAIN_MENU);
});

Deno.test("a staff-only agent is never reached, even from a stored state or a menu option", () => {
  const staff = decideRoute("ok", inFlow("marketing_sales"), context);
  assert.deepStrictEqual(staff.kind, "clarify");
  const menu = { ...atMenu, menuOptions: ["sora_video"] };
  assert.deepStrictEqual(decideRoute("1", menu, context).kind, "menu");
});

Deno.test("replies follow the message's language and an explicit request sticks", () => {
  const french = decideRoute("reply in French", inFlow("mobility_orchestrator"), context);
  assert.deepStrictEqual([
    french.kind,
    french.replyLanguage,
    french.langPref,
    french.languageChanged,
  ], ["stay", "fr", "fr", true]);
  assert.deepStrictEqual(
    decideRoute("ok", inFlow("mobility_orchestrator", "fr"), context).replyLanguage,
    "fr",
  );
  assert.deepStrictEqual(decideRoute("ndashaka kurya", fresh, context).replyLanguage, "rw");
});

Deno.test("avocat: a lawyer for a land dispute reaches legal intake, a kilo of avocados does not", () => {
  const lawyer = decideRoute("je cherche un avocat pour un litige foncier", fresh, context);
  assert.deepStrictEqual(lawyer.kind === "route" && lawyer.agent, "legal_intake");
  assert.deepStrictEqual(lawyer.replyLanguage, "fr");
  const fruit = decideRoute("avocats 2kg", fresh, context);
  assert.ok(
    fruit.kind === "route" && ["shop", "buy_and_sell"].includes(fruit.agent),
    JSON.stringify(fruit),
  );
});

Deno.test("a filler first message gets a clarifying question with the services", () => {
  for (const text of ["ok thanks", "sawa murakoze", "d'accord merci"]) {
    const decision = decideRoute(text, fresh, context);
    assert.deepStrictEqual(decision.kind, "clarify", text);
    assert.deepStrictEqual(decision.kind === "clarify" && decision.options, MAIN_MENU);
  }
});

Deno.test("a place named beside another topic is where, not what, and the route carries it", () => {
  const withPlaces = trainRouteContext({
    examples: PACK_INTENTS,
    unclear: UNCLEAR_PHRASES,
    agents: context.agents,
    places: ["Nyabugogo", "Kimironko market", "Kimironko"],
  });
  const decision = decideRoute("i need sand and bricks from Nyabugogo", fresh, withPlaces);
  assert.equal(decision.kind, "route");
  if (decision.kind !== "route") return;
  assert.equal(decision.agent, "hardware");
  assert.equal(decision.place, "Nyabugogo");
  const market = decideRoute("a moto near Kimironko market", fresh, withPlaces);
  assert.equal(market.kind === "route" && market.place, "Kimironko market");
});

Deno.test("a vehicle's make and model name no topic: selling, insuring and a ride differ by their verbs", () => {
  const withMakes = trainRouteContext({
    examples: PACK_INTENTS,
    unclear: UNCLEAR_PHRASES,
    agents: context.agents,
    neutralNames: ["toyota", "hilux", "nissan", "patrol"],
  });
  const agentOf = (text: string) => {
    const decision = decideRoute(text, fresh, withMakes);
    return decision.kind === "route" ? decision.agent : decision.kind;
  };
  assert.equal(agentOf("selling my toyota hilux, 2016"), "buy_and_sell");
  assert.equal(agentOf("comprehensive cover for my nissan patrol"), "insurance");
});

Deno.test("danger, violence and theft in any wording reach a person urgently, even mid-flow", () => {
  for (
    const text of [
      "the rider rode off with my shopping and blocked my number",
      "mon ex me suit partout",
      "umugabo wanjye arankubita",
    ]
  ) {
    const decision = decideRoute(text, inFlow("shop"), context);
    assert.equal(decision.kind === "route" && decision.urgent, true, text);
  }
});

Deno.test("an explicit danger beside an everyday need is handed off: the need never dilutes it", () => {
  // Each names a price or a ride beside a theft or a blow; the model, reading the whole message
  // as a shopper's, used to clear the lexicon's hit.
  for (
    const text of [
      "how much is a moto to Remera, a man stole my bag",
      "moto ijya Kacyiru ni angahe, banyibye telefoni",
      "combien coûte une moto pour Remera, un homme m'a volé mon sac",
      "je veux une moto pour Remera, un homme m'a frappé",
    ]
  ) {
    for (const state of [fresh, inFlow("mobility_orchestrator")]) {
      const decision = decideRoute(text, state, context);
      assert.equal(decision.kind === "route" && decision.agent, context.agents.handoff, text);
      assert.equal(decision.kind === "route" && decision.urgent, true, text);
    }
  }
  // An ordinary need that only borrows a harm word beside a purchase is still its agent's.
  const lock = decideRoute("how much is the thief-proof lock for my gate", fresh, context);
  assert.equal(lock.kind === "route" && lock.urgent, false);
});

Deno.test("a complaint about a driver, a waiter, a vendor, an order or a venue reaches a person, not a new ride or order, in en, rw and fr", () => {
  for (
    const text of [
      "Mfite ikibazo, umushoferi yanshyize nabi",
      "umumotari yansuzuguye ejo, ndashaka gutanga ikirego",
      "the moto driver was rude and overcharged me yesterday",
      "I want to complain about the restaurant, the food was cold",
      "le serveur était désagréable avec nous hier soir",
      "la commande est arrivée froide, je veux me plaindre",
    ]
  ) {
    for (const state of [fresh, atMenu, inFlow("concierge_router")]) {
      const decision = decideRoute(text, state, context);
      assert.equal(decision.kind === "route" && decision.agent, context.agents.handoff, text);
      assert.equal(decision.kind === "route" && decision.urgent, false, text);
    }
  }
  // A complaint that asks for a lawyer or a court stays legal intake's; a ride is a ride.
  const agentOf = (text: string) => {
    const decision = decideRoute(text, fresh, context);
    return decision.kind === "route" ? decision.agent : decision.kind;
  };
  assert.equal(agentOf("complaint against my landlord, i need an advocate"), "legal_intake");
  assert.equal(
    agentOf("qqn me doit 2 millions et refuse de payer, je peux porter plainte au tribunal?"),
    "legal_intake",
  );
  assert.equal(agentOf("ndashaka moto ijya Remera"), "mobility_orchestrator");
});

Deno.test("a greeting and nothing else goes to the front desk", () => {
  for (
    const text of [
      "bonne soiree a vous",
      "mwiriwe mwese",
      "good morning dear",
      // French "coucou" and Swahili greetings.
      "coucou",
      "hallo",
      "hiya",
      "jambo",
      "habari",
    ]
  ) {
    const decision = decideRoute(text, fresh, context);
    assert.equal(decision.kind === "route" && decision.agent, "concierge_router", text);
  }
});

Deno.test("a greeting before a request leaves the request to say where it goes", () => {
  // The live router: its places are neutral, so the greeting is most of what is left.
  const live = platformRouter();
  const agentOf = (text: string) => {
    const decision = decideRoute(text, fresh, live);
    return decision.kind === "route" ? decision.agent : decision.kind;
  };
  for (
    const [text, agent] of [
      ["bonjour, une moto pour Kacyiru", "mobility_orchestrator"],
      ["bonsoir, je peux voir le menu", "waiter_ai"],
      ["bjr taxi pour Kigali Heights svp", "mobility_orchestrator"],
      ["mwaramutse, ndashaka imiti y'inkorora", "pharmacy"],
      // Nothing clear after the greeting: the front desk, as for the greeting alone.
      ["salut, vous etes qui", "concierge_router"],
      ["mwiriwe neza bagenzi", "concierge_router"],
    ]
  ) {
    assert.equal(agentOf(text), agent, text);
  }
});

Deno.test("a district or neighbourhood outside the rides' gazetteer is where too: no topic, no language, no place handed on", () => {
  const live = platformRouter();
  for (
    const [text, agent] of [
      ["cement and iron bars in Kibagabaga", "hardware"],
      ["ikibanza kigurishwa i Nyamata", "property"],
      ["une pharmacie a Musanze", "pharmacy"],
    ]
  ) {
    const decision = decideRoute(text, fresh, live);
    assert.equal(decision.kind === "route" && decision.agent, agent, text);
    // Only the gazetteer's places can be located: these are not handed to the agent.
    assert.equal(decision.kind === "route" && decision.place, undefined, text);
  }
  // A region's name alone says nothing of the language: the conversation's stands.
  const reply = decideRoute("Nyamata", { ...fresh, langPref: "fr" }, live);
  assert.equal(reply.replyLanguage, "fr");
});

Deno.test("a first message of words that name nothing asks which service, in three languages", () => {
  const live = platformRouter();
  for (
    const text of [
      "i need",
      "so what",
      "je voudrais",
      "c'est possible",
      "nkeneye",
      "ese gute",
      "i would like to",
      "il me faut",
      "ndifuza",
    ]
  ) {
    assert.equal(decideRoute(text, fresh, live).kind, "clarify", text);
  }
  // One word that names something is enough; and mid-flow such words answer the agent.
  const taxi = decideRoute("i need a taxi", fresh, live);
  assert.equal(taxi.kind === "route" && taxi.agent, "mobility_orchestrator");
  assert.equal(decideRoute("yes i need", inFlow("pharmacy"), live).kind, "stay");
});

Deno.test("a price or stock question that names no thing asks which service; with a thing it routes", () => {
  const live = platformRouter();
  for (
    const text of [
      "how much?",
      "how much is it?",
      "what is the price?",
      "what's the price",
      "is it available",
      "ni angahe?",
      "igiciro?",
      "birahari?",
      "c'est combien?",
      "c'est dispo?",
      "prix?",
    ]
  ) {
    assert.equal(decideRoute(text, fresh, live).kind, "clarify", text);
  }
  for (
    const [text, agent] of [
      ["cement how much?", "hardware"],
      ["moto ni angahe?", "mobility_orchestrator"],
      ["panadol c'est combien?", "pharmacy"],
    ]
  ) {
    const decision = decideRoute(text, fresh, live);
    assert.equal(decision.kind === "route" && decision.agent, agent, text);
  }
});

Deno.test("Kinyarwanda particles of when, where and asking, and SMS wanting, name no service: the message asks which", () => {
  const live = platformRouter();
  // "ubu" (now), "mbese" (is it that), "hano" (here), "mwashobora" (could you), "nshk" (I want).
  for (const text of ["ni angahe ubu", "mbese birahari hano?", "mwashobora?", "nshk", "nkny ubu"]) {
    assert.equal(decideRoute(text, fresh, live).kind, "clarify", text);
  }
  // With a thing beside them they route by the thing.
  for (
    const [text, agent] of [
      ["moto ni angahe ubu?", "mobility_orchestrator"],
      ["nshk sima", "hardware"],
    ]
  ) {
    const decision = decideRoute(text, fresh, live);
    assert.equal(decision.kind === "route" && decision.agent, agent, text);
  }
});

Deno.test("a first message's request is about its object: the opener's lean to one agent gives way", () => {
  const live = platformRouter();
  // "ndashaka" (I want) fills buy & sell's phrases: naive Bayes alone leans there (the linear
  // model blended in since reads it as the pharmacy's), "kugura panadol" (to buy panadol) is
  // surely the pharmacy's.
  for (
    const [text, agent] of [
      ["ndashaka kugura panadol", "pharmacy"],
      ["je veux acheter du panadol", "pharmacy"],
      ["I want to sell my car", "buy_and_sell"],
      ["I want a lawyer for my land dispute", "legal_intake"],
    ]
  ) {
    const decision = decideRoute(text, fresh, live);
    assert.equal(decision.kind === "route" && decision.agent, agent, text);
  }
  // An object that names nothing leaves the whole message to decide, or to ask.
  assert.equal(decideRoute("ndashaka ikintu", fresh, live).kind, "clarify");
});

Deno.test("who or what a first message's thing is for is not what it asks for", () => {
  const live = platformRouter();
  // The whole message reads as the restaurant's: the thing asked for is the hardware store's.
  assert.equal(live.classifier.classify("white paint for my restaurant").agent, "waiter_ai");
  for (
    const [text, agent] of [
      ["white paint for my restaurant", "hardware"],
      ["des clous pour mon restaurant", "hardware"],
      ["insurance for my moto", "insurance"],
      // Nothing sure left without the purpose: the purpose's words are the thing asked about.
      ["how long for my food order", "waiter_ai"],
      // Without its purpose the thing is torn ("a doctor": hardware 0.26, legal 0.23): the whole
      // message is surer, and it is the pharmacy's.
      ["I need a doctor for my child", "pharmacy"],
    ]
  ) {
    const decision = decideRoute(text, fresh, live);
    assert.equal(decision.kind === "route" && decision.agent, agent, text);
  }
});

Deno.test("a trip between districts the rides' gazetteer cannot locate is still a ride, with no place handed on", () => {
  const live = platformRouter();
  for (
    const text of [
      "je dois me rendre à Muhanga",
      "je dois rentrer à Rusizi",
      "de Gisenyi à Kibuye",
      "kuva Rwamagana ujya Kayonza",
    ]
  ) {
    const decision = decideRoute(text, fresh, live);
    assert.equal(decision.kind === "route" && decision.agent, "mobility_orchestrator", text);
    assert.equal(decision.kind === "route" && decision.place, undefined, text);
  }
});

Deno.test("asking how the service works goes to the front desk, whatever a topic shares with its words", () => {
  const live = platformRouter();
  for (
    const text of [
      "ça marche comment ici",
      "comment ça marche",
      "bonjour, comment ça fonctionne svp",
      "ibi bikora gute?",
      "how does it work here",
    ]
  ) {
    const decision = decideRoute(text, fresh, live);
    assert.equal(decision.kind === "route" && decision.agent, "concierge_router", text);
  }
  // With a thing asked about, the thing decides.
  for (
    const [text, agent] of [
      ["momo ne marche pas", "payments"],
      ["comment ça marche pour louer une maison", "property"],
    ]
  ) {
    const decision = decideRoute(text, fresh, live);
    assert.equal(decision.kind === "route" && decision.agent, agent, text);
  }
});

Deno.test("a greeting with a request to see the main menu shows it; a bare 'show me the menu' stays a venue's", () => {
  for (
    const text of [
      "hey, show me the main menu pls",
      "bjr montrez moi le menu principal",
      "muraho, nyereka ahabanza",
    ]
  ) {
    assert.equal(decideRoute(text, fresh, context).kind, "menu", text);
  }
  const venue = decideRoute("hi, show me the menu", fresh, context);
  assert.notEqual(venue.kind, "menu");
});

Deno.test("going back to the menu, or asking for the first menu, is the main menu in every language", () => {
  for (
    const text of [
      "take me back to the main menu pls",
      "go back to the menu",
      "retour au menu principal svp",
      "ramenez moi au menu",
      "nsubiza kuri menu ya mbere",
      "dusubire ku menu nkuru",
    ]
  ) {
    assert.equal(decideRoute(text, fresh, context).kind, "menu", text);
    assert.equal(decideRoute(text, inFlow("waiter_ai"), context).kind, "menu", text);
  }
  // A venue's menu is still the waiter's, and going back to a place is a ride.
  for (const text of ["show me the menu at Bourbon", "take me back to Remera"]) {
    assert.notEqual(decideRoute(text, fresh, context).kind, "menu", text);
  }
});

Deno.test("wanting to go back to the start is the main menu, said with a want or not, in every language", () => {
  for (
    const text of [
      "i want to go back to the beginning",
      "go back to the start please",
      "nshaka gusubira ku ntangiriro",
      "ndifuza gusubira ahabanza",
      "je voudrais revenir au début",
      "retour au debut stp",
    ]
  ) {
    assert.equal(decideRoute(text, fresh, context).kind, "menu", text);
    assert.equal(decideRoute(text, inFlow("mobility_orchestrator"), context).kind, "menu", text);
  }
  // Starting something, or wanting to go back to a place, is no menu.
  for (
    const text of [
      "i want to go back to Kimironko",
      "ndashaka gusubira i Remera",
      "je veux le début du film",
    ]
  ) {
    assert.notEqual(decideRoute(text, fresh, context).kind, "menu", text);
  }
});

Deno.test("'something' in any language names nothing: the first message gets a clarifying question", () => {
  for (
    const text of [
      "nkeneye ikintu",
      "je cherche qqch",
      "i want smth",
      "mfite ikibazo gito",
      "j'ai un souci",
    ]
  ) {
    assert.equal(decideRoute(text, fresh, context).kind, "clarify", text);
  }
});

Deno.test("a remark before the request says nothing of where it goes: the clause that asks decides", () => {
  const decision = decideRoute(
    "it's raining so hard here at the market, get me a cab to Kacyiru",
    fresh,
    context,
  );
  assert.equal(decision.kind === "route" && decision.agent, "mobility_orchestrator");
});

Deno.test("a complaint made mid-flow reaches a person aside, and the person keeps the flow; a haggle over the quote is no complaint", () => {
  for (
    const [text, agent] of [
      ["the driver was rude", "mobility_orchestrator"],
      ["umushoferi wanjyanye ejo yantutse", "mobility_orchestrator"],
      ["le serveur m'a mal parlé hier", "waiter_ai"],
      ["the waiter insulted us last night", "waiter_ai"],
    ]
  ) {
    const decision = decideRoute(text, inFlow(agent), context);
    assert.equal(decision.kind === "route" && decision.agent, context.agents.handoff, text);
    assert.equal(decision.kind === "route" && decision.urgent, false, text);
    assert.equal(decision.kind === "route" && decision.aside, true, text);
  }
  // Asking for a person with the complaint is a hand-off, as any request for a person.
  const person = decideRoute(
    "I want to talk to a person, the last driver overcharged me",
    inFlow("mobility_orchestrator"),
    context,
  );
  assert.equal(person.kind === "route" && person.aside, undefined);
  // At the front desk a complaint is no aside: there is no flow to keep.
  const fromDesk = decideRoute("the driver was rude", fresh, context);
  assert.equal(fromDesk.kind === "route" && fromDesk.aside, undefined);
  for (const text of ["c'est trop cher la moto", "moto irahenze cyane"]) {
    const decision = decideRoute(text, inFlow("mobility_orchestrator", "fr"), context);
    assert.notEqual(decision.kind === "route" && decision.agent, context.agents.handoff, text);
  }
});

Deno.test("a moto driver named in a ride's request is no complaint: it reaches rides", () => {
  for (const text of ["umumotari wanjye ari he", "un chauffeur pour aller à Kicukiro"]) {
    const decision = decideRoute(text, fresh, context);
    assert.equal(decision.kind === "route" && decision.agent, "mobility_orchestrator", text);
  }
});

Deno.test("a first message naming an origin and a destination reaches the trips agent in every language", () => {
  assert.equal(context.agents.trips, "mobility_orchestrator");
  for (
    const text of [
      "kuva Remera kugera Kicukiro",
      "Remera to Kicukiro how much",
      "de Kimironko à Nyabugogo",
      "can someone pick me at the airport at 11pm and drop me in Gisozi",
    ]
  ) {
    const decision = decideRoute(text, fresh, context);
    assert.equal(decision.kind, "route", text);
    if (decision.kind === "route") assert.equal(decision.agent, "mobility_orchestrator", text);
  }
  // Another agent's thing carried between the two places stays that agent's.
  const cement = decideRoute("10 bags of cement from Gisozi to Kimironko, price?", fresh, context);
  assert.ok(cement.kind === "route" && cement.agent === "hardware");
});

Deno.test("help with 'something', a question or a problem and nothing named gets a clarifying question in every language", () => {
  for (
    const text of [
      "I need help with something",
      "hi, I need something from you guys",
      "j'ai besoin d'aide pour un truc",
      "ndashaka ubufasha ku kintu",
      "I want to ask",
      "ndashaka kubaza",
      "je voudrais savoir un truc",
      "I have a small issue",
    ]
  ) assert.equal(decideRoute(text, fresh, context).kind, "clarify", text);
  // The thing named, it routes.
  const named = decideRoute("I need help with something: a taxi to Remera", fresh, context);
  assert.equal(named.kind, "route");
});

// Worded apart from the routing sets (issue 24 item 6): where the newer packs compete.
Deno.test("paying medicine with a health insurance card reaches the pharmacy; buying cover reaches insurance", () => {
  const first = (text: string) => {
    const decision = decideRoute(text, fresh, context);
    return decision.kind === "route" ? decision.agent : decision.kind;
  };
  for (
    const text of [
      "can I settle the pharmacy bill with my RSSB card",
      "mbese imiti nayishyura n'ubwishingizi bwa RSSB?",
      "est-ce que la carte RSSB paie les comprimés",
    ]
  ) assert.equal(first(text), "pharmacy", text);
  for (
    const text of ["third party cover for my pickup", "ubwishingizi bwa moto yanjye"]
  ) assert.equal(first(text), "insurance", text);
});

Deno.test("a complaint that asks for the manager reaches a person, not urgently; an extinguisher for a business reaches hardware", () => {
  for (
    const text of [
      "I've been kept waiting for an hour, let me talk to your manager",
      "ça fait une heure, c'est inacceptable, je veux le gérant",
    ]
  ) {
    const decision = decideRoute(text, fresh, context);
    assert.equal(decision.kind === "route" && decision.agent, context.agents.handoff, text);
    assert.equal(decision.kind === "route" && decision.urgent, false, text);
  }
  const extinguisher = decideRoute("two extinguishers for my bar", fresh, context);
  assert.equal(extinguisher.kind === "route" && extinguisher.agent, "hardware");
});

Deno.test("mid-flow: the money, amounts and phone numbers of a story stay with the flow, in en, rw and fr", () => {
  for (
    const text of [
      "i sent him the money by mobile money last march",
      "je lui ai envoyé l'argent par MoMo en mars",
      "mubizane i Remera hafi ya gare, nzishyura amafaranga 8000",
      "a man owes me 2,000,000 RWF and he no longer answers his phone 0788123456",
    ]
  ) {
    // As a first message the words name payments: the flow, not the vocabulary, keeps them.
    const first = decideRoute(text, fresh, context);
    assert.deepStrictEqual(first.kind === "route" && first.agent, "payments", text);
    for (const agent of ["legal_intake", "property", "waiter_ai"]) {
      const decision = decideRoute(text, inFlow(agent), context);
      assert.deepStrictEqual([decision.kind, decision.kind === "stay" && decision.agent], [
        "stay",
        agent,
      ], `${agent}: ${text}`);
    }
  }
});

Deno.test("mid-flow: a clear new request leaves for the agent it names, in en, rw and fr", () => {
  for (
    const [text, language] of [
      ["I want to buy medicine", "en"],
      ["Ndashaka kugura imiti", "rw"],
      ["je veux acheter des médicaments", "fr"],
    ] as const
  ) {
    const decision = decideRoute(text, inFlow("property", language), context);
    assert.deepStrictEqual(
      [decision.kind, decision.kind === "route" && decision.agent, decision.replyLanguage],
      ["route", "pharmacy", language],
      text,
    );
  }
  // A request naming nothing ("I want to ask something") is the flow's to answer.
  assert.deepStrictEqual(
    decideRoute("I want to ask something", inFlow("property"), context).kind,
    "stay",
  );
});

Deno.test("mid-flow: paying for the order (momo, cash) or its delivery stays with the ordering flow, in en, rw and fr", () => {
  for (
    const [text, language] of [
      ["I want to pay with momo", "en"],
      ["I want to pay cash on delivery", "en"],
      ["ndashaka kwishyura na momo", "rw"],
      ["nshaka kwishyura kuri mobile money", "rw"],
      ["je veux payer par momo", "fr"],
      ["je voudrais payer avec mobile money", "fr"],
    ] as const
  ) {
    for (const agent of ["waiter_ai", "pharmacy", "shop", "hardware"]) {
      const decision = decideRoute(text, inFlow(agent, language), context);
      assert.deepStrictEqual(
        [decision.kind, decision.kind === "stay" && decision.agent, decision.replyLanguage],
        ["stay", agent, language],
        `${agent}: ${text}`,
      );
    }
  }
  // At the front desk, paying by mobile money is the payments service's.
  for (
    const text of [
      "I want to pay with momo",
      "ndashaka kwishyura na momo",
      "je veux payer par momo",
    ]
  ) {
    const atDesk = decideRoute(text, inFlow(context.agents.frontDesk), context);
    assert.deepStrictEqual(atDesk.kind === "route" && atDesk.agent, "payments", text);
  }
});

Deno.test("mid-flow: paying a bill, fees, airtime or a person leaves the order for payments, in en, rw and fr", () => {
  for (
    const [text, language] of [
      ["I want to pay my electricity bill", "en"],
      ["i need to pay school fees for my daughter", "en"],
      ["I want to pay for airtime on my phone", "en"],
      ["ndashaka kwishyura fagitire y'amazi", "rw"],
      ["ndashaka kwishyura umuriro w'amashanyarazi", "rw"],
      ["je veux payer ma facture d'électricité", "fr"],
      ["je voudrais payer le loyer à mon propriétaire", "fr"],
    ] as const
  ) {
    for (const agent of ["waiter_ai", "pharmacy", "shop", "hardware"]) {
      const decision = decideRoute(text, inFlow(agent, language), context);
      assert.deepStrictEqual(
        [decision.kind, decision.kind === "route" && decision.agent, decision.replyLanguage],
        ["route", "payments", language],
        `${agent}: ${text}`,
      );
    }
  }
  // The order's own "Pay with MoMo" button shares the word "pay": a bill still leaves.
  for (
    const [text, language, button] of [
      ["I want to pay my electricity bill", "en", "Pay with MoMo"],
      ["ndashaka kwishyura umuriro w'amashanyarazi", "rw", "Kwishyura na MoMo"],
      ["je veux payer ma facture d'électricité", "fr", "Payer par MoMo"],
    ] as const
  ) {
    const decision = decideRoute(text, { ...inFlow("shop", language), offered: [button] }, context);
    assert.deepStrictEqual(decision.kind === "route" && decision.agent, "payments", text);
  }
  // Paying the order itself, asked any way, stays.
  for (
    const [text, language] of [
      ["how do I pay", "en"],
      ["pay with momo please", "en"],
      ["nishyura nte?", "rw"],
      ["comment je paie ?", "fr"],
      ["je veux payer ma commande par momo", "fr"],
    ] as const
  ) {
    for (const agent of ["waiter_ai", "pharmacy", "shop", "hardware"]) {
      const decision = decideRoute(text, inFlow(agent, language), context);
      assert.deepStrictEqual(
        [decision.kind, decision.kind === "stay" && decision.agent],
        ["stay", agent],
        `${agent}: ${text}`,
      );
    }
  }
  // Paying what the flow itself sells is its own step: the premium at Insurance.
  const premium = decideRoute("I want to pay the insurance premium", inFlow("insurance"), context);
  assert.deepStrictEqual([premium.kind, premium.kind === "stay" && premium.agent], [
    "stay",
    "insurance",
  ]);
});

Deno.test("mid-flow: a landmark in a request is where, not what: a house near a pharmacy stays in property", () => {
  for (
    const [text, language] of [
      ["I want a house near a pharmacy", "en"],
      ["i would like a house close to a supermarket", "en"],
      ["ndashaka inzu hafi ya farumasi", "rw"],
      ["nkeneye inzu iri hafi ya gare", "rw"],
      ["je veux une maison près d'une pharmacie", "fr"],
      ["je voudrais un appartement à côté d'un supermarché", "fr"],
    ] as const
  ) {
    const decision = decideRoute(text, inFlow("property", language), context);
    assert.deepStrictEqual(
      [decision.kind, decision.kind === "stay" && decision.agent],
      ["stay", "property"],
      text,
    );
  }
  // The thing asked for still leaves, landmark or not.
  const taxi = decideRoute(
    "i need a taxi to Remera near the pharmacy",
    inFlow("property"),
    context,
  );
  assert.deepStrictEqual(taxi.kind === "route" && taxi.agent, "mobility_orchestrator");
});

Deno.test("in a flow, a price, stock or how-it-works question and a purpose alone stay with the flow's agent", () => {
  const live = platformRouter();
  for (
    const [text, agent] of [
      ["how does it work", "insurance"],
      ["ça marche comment ici", "payments"],
      ["bikora gute", "property"],
      ["how much?", "pharmacy"],
      ["ni angahe?", "mobility_orchestrator"],
      ["c'est dispo?", "shop"],
      ["for my restaurant", "hardware"],
      ["mu rugo", "mobility_orchestrator"],
    ]
  ) {
    const decision = decideRoute(text, inFlow(agent), live);
    assert.equal(decision.kind, "stay", `${text} (${agent})`);
  }
});

Deno.test("a first message that only points back or to a time gets a clarifying question; a thing named with it routes", () => {
  for (
    const text of [
      "is it still there?",
      "tomorrow morning then",
      "the one I asked about",
      "same as last time",
      "c'est toujours dispo ?",
      "demain matin alors",
      "celui dont je vous ai parlé",
      "ejo mu gitondo noneho",
      "biracyahari?",
    ]
  ) {
    assert.equal(decideRoute(text, fresh, context).kind, "clarify", text);
  }
  for (
    const [text, agent] of [
      ["a moto tomorrow morning", "mobility_orchestrator"],
      ["is the cement still there?", "hardware"],
      ["panadol ejo mu gitondo", "pharmacy"],
    ]
  ) {
    const decision = decideRoute(text, fresh, context);
    assert.equal(decision.kind === "route" && decision.agent, agent, text);
  }
});

Deno.test("a vehicle hired to somewhere is a ride, whatever the destination names; someone's own car is not", () => {
  for (
    const text of [
      "a moto to the pharmacy at Kisimenti pls",
      "une moto jusqu'à la pharmacie svp",
      "moto injyana kuri farumasi",
      "taxi to the hardware shop in Gikondo",
      "tagisi ijya ku isoko",
      "nkeneye kujyanwa kwa muganga",
      "je veux être déposée au marché de Nyarugenge",
    ]
  ) {
    const decision = decideRoute(text, fresh, context);
    assert.equal(decision.kind === "route" && decision.agent, "mobility_orchestrator", text);
  }
  for (
    const [text, agent] of [
      ["I want to sell my car to a dealer", "buy_and_sell"],
      ["insurance for my moto to the end of the year", "insurance"],
    ]
  ) {
    const decision = decideRoute(text, fresh, context);
    assert.equal(decision.kind === "route" && decision.agent, agent, text);
  }
});

Deno.test("asking whether anyone is there, with or without a greeting, is the front desk's, not a hand-off", () => {
  for (
    const text of [
      "hello, is anybody there?",
      "anyone there??",
      "bonsoir, y a quelqu'un ?",
      "mwiriwe, hari umuntu uhari?",
    ]
  ) {
    const decision = decideRoute(text, fresh, context);
    assert.equal(decision.kind === "route" && decision.agent, "concierge_router", text);
  }
  // Asking for a person is still the hand-off.
  const person = decideRoute("I want to talk to a real person", fresh, context);
  assert.equal(person.kind === "route" && person.agent, "support_handoff");
});

Deno.test("a request's object is read by its head when what follows it blurs it: the thing asked for decides", () => {
  for (
    const [text, agent] of [
      ["nshaka umuti w'inka yanze kurya", "pharmacy"],
      ["nkeneye isabune n'umuti w'amenyo", "shop"],
    ]
  ) {
    const decision = decideRoute(text, fresh, context);
    assert.equal(decision.kind === "route" && decision.agent, agent, text);
  }
  // An object that opens with a verb keeps its whole reading: a staff task reaches no agent and
  // is answered as the team's work.
  const staff = decideRoute("i want to schedule a marketing broadcast campaign", fresh, context);
  assert.equal(staff.kind, "staff_work");
});

Deno.test("in a flow, a short message surely naming another service's thing leaves for it, in every language", () => {
  // No request opener and no change-of-mind marker: only its shortness and sureness say it is a
  // new request, not the flow's answer (no dev set has such a turn; scripts/ablate_routing.ts).
  const live = platformRouter();
  for (
    const [text, from, to, language] of [
      ["a moto to Remera please", "waiter_ai", "mobility_orchestrator", "en"],
      ["moto ijya i Remera", "waiter_ai", "mobility_orchestrator", "rw"],
      ["un taxi pour Remera svp", "shop", "mobility_orchestrator", "fr"],
      ["inzu yo gukodesha", "shop", "property", "rw"],
    ] as const
  ) {
    const decision = decideRoute(text, inFlow(from, language), live);
    assert.equal(decision.kind === "route" && decision.agent, to, text);
  }
});

Deno.test("moving or cancelling something unnamed is the person's open work, never a search", () => {
  // Each with the change it asks for: a move (to another time) or a cancel.
  const cases: Array<[string, string, "move" | "cancel"]> = [
    ["please cancel that", "en", "cancel"],
    ["can you reschedule it for me", "en", "move"],
    ["I'd like to postpone it", "en", "move"],
    ["je voudrais le reporter", "fr", "move"],
    ["annulez-la s'il vous plait", "fr", "cancel"],
    ["est-ce que je peux la déplacer", "fr", "move"],
    ["ndashaka kubihagarika", "rw", "cancel"],
    ["nshaka kuyisubika", "rw", "move"],
    ["mushobora kuyimura?", "rw", "move"],
    // One word: the verb's own inflection says the language (no phrase has these forms).
    ["reporter", "fr", "move"],
    ["annulez", "fr", "cancel"],
    ["mwayimura?", "rw", "move"],
    ["guhagarika", "rw", "cancel"],
  ];
  for (const [text, language, change] of cases) {
    const decision = decideRoute(text, fresh, context);
    assert.deepStrictEqual(decision.kind, "open_work", text);
    assert.deepStrictEqual(decision.kind === "open_work" && decision.change, change, text);
    assert.deepStrictEqual(decision.kind === "open_work" && decision.about, undefined, text);
    assert.deepStrictEqual(decision.replyLanguage, language, text);
  }
  // One activity named alone leans the open work to its agent ("stop the visit": a viewing).
  const visit = decideRoute("nifuza guhagarika gusura", fresh, context);
  assert.deepStrictEqual(visit.kind === "open_work" ? visit.about : visit.kind, "property");
  // A thing named goes to its agent as before.
  const booking = decideRoute("could I move my reservation", fresh, context);
  assert.deepStrictEqual(booking.kind === "route" && booking.agent, "waiter_ai");
  // Typed inside a flow, the bare change is the same request, marked so that the flow reads it
  // when nothing of the person's is open: never an item ("move it" at the waiter's menu).
  for (
    const [text, language, change] of [
      ["move it", "en", "move"],
      ["cancel it", "en", "cancel"],
      ["déplace-la", "fr", "move"],
      ["je veux l'annuler", "fr", "cancel"],
      ["yimure", "rw", "move"],
      ["ndashaka kuyihagarika", "rw", "cancel"],
    ] as const
  ) {
    const decision = decideRoute(text, inFlow("waiter_ai"), context);
    assert.deepStrictEqual(
      decision.kind === "open_work" && [decision.change, decision.inFlow, decision.replyLanguage],
      [change, true, language],
      text,
    );
  }
  // The flow's own "Cancel" button, typed, stays the flow's answer.
  assert.deepStrictEqual(
    decideRoute(
      "cancel",
      { ...inFlow("mobility_orchestrator"), offered: ["Confirm", "Cancel"] },
      context,
    )
      .kind,
    "stay",
  );
});

Deno.test("a purchase followed up reaches the agent that answers it, or a person where the tenant runs none, in en, rw and fr", () => {
  // A tenant that runs a shop and a person, no waiter and no payments desk (Beaver's Choice).
  const shopOnly = platformRouter(PACKS, [
    "concierge_router",
    "shop",
    "support_handoff",
    "analytics_risk",
  ]);
  const agentOf = (text: string, routing = shopOnly) => {
    const decision = decideRoute(text, fresh, routing);
    return decision.kind === "route" ? decision.agent : decision.kind;
  };
  for (
    const text of [
      "my order is late",
      "facture pour ma commande A-1001",
      "the box of paper arrived damaged",
      "I want a refund",
      "itumiza ryanjye ryatinze",
      "ma commande est en retard",
    ]
  ) assert.ok(["shop", shopOnly.agents.handoff].includes(agentOf(text)), text);
  // Money back and invoices: no agent this tenant runs answers them.
  for (const text of ["I want a refund", "facture pour ma commande A-1001"]) {
    assert.equal(agentOf(text), shopOnly.agents.handoff, text);
  }
  // What the shop answers stays the shop's.
  assert.equal(agentOf("do you have A4 paper?"), "shop");
  // A tenant that runs the payments desk answers its own invoices; a shop tracks its orders.
  assert.equal(agentOf("facture pour ma commande A-1001", platformRouter()), "payments");
  assert.equal(agentOf("where is my grocery order", platformRouter()), "shop");
  // Goods that arrived damaged are a complaint for a person, whoever sold them.
  for (const text of ["the box arrived damaged", "le colis est arrivé abîmé"]) {
    assert.equal(agentOf(text, platformRouter()), shopOnly.agents.handoff, text);
  }
});

Deno.test("asking us to stop sending messages goes to a person, not told as the broadcast team's work", () => {
  // The live router: its staff-work class learns "promotions" and "send" from the marketing
  // team's work, which asking for them to stop shares.
  const live = platformRouter();
  for (
    const text of [
      "stop texting me your special offers",
      "ne m'envoyez plus vos publicités svp",
      "mureke kunyoherereza ubutumwa bwa promosiyo buri munsi",
    ]
  ) {
    const decision = decideRoute(text, fresh, live);
    assert.equal(decision.kind === "route" && decision.agent, "support_handoff", text);
    assert.equal(decision.kind === "route" && decision.urgent, false, text);
  }
  // Asking for the broadcasts themselves is still the team's work.
  for (const text of ["send a promotion to all your customers", "lancer une campagne marketing"]) {
    assert.equal(decideRoute(text, fresh, live).kind, "staff_work", text);
  }
});

Deno.test("how the flow's thing is paid, asked inside it, stays with the flow", () => {
  for (
    const text of [
      "can I pay cash?",
      "je peux payer en espèces ?",
      "nakwishyura mu ntoki?",
      "nakwishyura kuri MoMo?",
    ]
  ) {
    const decision = decideRoute(text, inFlow("mobility_orchestrator"), context);
    assert.deepEqual(
      decision.kind === "stay" ? decision.agent : decision.kind,
      "mobility_orchestrator",
      text,
    );
  }
  // Paying something else is still a new request for payments.
  const bill = decideRoute(
    "I want to pay my electricity bill",
    inFlow("mobility_orchestrator"),
    context,
  );
  assert.equal(bill.kind === "route" ? bill.agent : bill.kind, "payments");
});

Deno.test("a first delivery question naming a place is the front desk's; naming a dish, the dish's agent's", () => {
  // The server's router (the routing model's reading of "sambusa" is what decides).
  const live = platformRouter();
  for (
    const text of [
      "mukora delivery i Remera?",
      "vous livrez à Kicukiro ?",
      "do you deliver to Nyamata?",
      // Naming nothing to bring: the business's delivery, as a whole.
      "do you deliver?",
      "est-ce que vous faites la livraison ?",
    ]
  ) {
    const decision = decideRoute(text, fresh, live);
    assert.deepStrictEqual(decision.kind === "route" && decision.agent, "concierge_router", text);
  }
  for (const text of ["vous livrez des sambusa ?", "do you deliver brochettes?"]) {
    const decision = decideRoute(text, fresh, live);
    assert.deepStrictEqual(decision.kind === "route" && decision.agent, "waiter_ai", text);
  }
});

Deno.test("hours asked inside an ordering flow are its place's; at the front desk, every place's", () => {
  for (
    const text of ["are you open on Sunday?", "vous êtes ouverts dimanche ?", "mufunga saa ngahe?"]
  ) {
    const inside = decideRoute(text, inFlow("waiter_ai"), context);
    assert.deepEqual(inside.kind === "stay" ? inside.agent : inside.kind, "waiter_ai", text);
    const first = decideRoute(text, fresh, context);
    assert.deepEqual(first.kind === "route" ? first.agent : first.kind, "concierge_router", text);
  }
  // A flow that knows no place of its own leaves the hours to the front desk.
  const ride = decideRoute("are you open on Sunday?", inFlow("mobility_orchestrator"), context);
  assert.deepEqual(ride.kind === "route" ? ride.agent : ride.kind, "concierge_router");
});
