import assert from "node:assert/strict";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { messageDelivery, type SimulatedContent } from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import { createWhatsAppChannel } from "@shared/channels/whatsapp/channel.ts";
import type { Language } from "@shared/contract/language.ts";
import { platformRouter } from "@shared/platform/router.ts";
import { PACKS } from "@shared/packs/mod.ts";
import { AGENT_CONFIGS } from "../../config/agent_configs.ts";
import { createAgentHandler } from "./whatsapp_agent.ts";

const SECRET = "routing-test-app-secret";

/** The real webhook, the agent answering with the live router, one user per `from`. */
async function channelOf(db: TestDatabase, agentConfig?: unknown) {
  const rt = await createTestRuntime(db, agentConfig ? { agentConfig } : {});
  const tasks: Promise<unknown>[] = [];
  const channel = createWhatsAppChannel(rt, {
    appSecret: SECRET,
    verifyToken: "v",
    conversation: createAgentHandler(rt, { model: null, router: platformRouter() }),
    background: (task) => void tasks.push(task()),
  });
  let n = 0;
  const prefix = crypto.randomUUID().slice(0, 8);
  return async function say(from: string, content: SimulatedContent) {
    const body = new TextEncoder().encode(
      JSON.stringify(messageDelivery({ from, wamid: `wamid.${prefix}.${n++}` }, content)),
    );
    const response = await channel.app.request("/wa-webhook", {
      method: "POST",
      headers: { "x-hub-signature-256": await signBody(SECRET, body) },
      body,
    });
    assert.equal(response.status, 200);
    while (tasks.length) await tasks.shift();
    await channel.dispatcher.drain();
    const [row] = await db.query<{ body: Record<string, unknown> }>(
      "select body from public.wa_outbox where to_wa_id = $1 order by seq desc limit 1",
      [from],
    );
    const [conversation] = await db.query<{ agent_id: string | null }>(
      `select c.agent_id from public.conversations c
       join public.profiles p on p.id = c.user_id where p.phone = '+' || $1`,
      [from],
    );
    return { body: row?.body ?? {}, agent: conversation?.agent_id ?? null };
  };
}

function text(body: Record<string, unknown>): string {
  return (body.text as { body: string } | undefined)?.body ??
    (body.interactive as { body: { text: string } } | undefined)?.body.text ?? "";
}

function choices(body: Record<string, unknown>): string[] {
  const action = (body.interactive as { action?: Record<string, unknown> } | undefined)?.action;
  const buttons = (action?.buttons as Array<{ reply: { id: string } }> | undefined) ?? [];
  const sections = (action?.sections as Array<{ rows: Array<{ id: string }> }> | undefined) ?? [];
  return [...buttons.map((b) => b.reply.id), ...sections.flatMap((s) => s.rows.map((r) => r.id))];
}

/** A pack text, as the agent must say it in `language`. */
function packText(agent: string, key: string, language: Language): string {
  const pack = PACKS.find((candidate) => candidate.agents.some((a) => a.id === agent))!;
  // The seeded tenant's brand fills the texts that name it.
  return pack.texts[key][language].replaceAll("{brand}", "EasyMO");
}

dbTest(
  "first messages for Waiter AI, Pharmacy, Mobility, Insurance, Property and Legal Intake land on them in each language",
  async (db) => {
    const say = await channelOf(db);
    const cases: Array<[string, string]> = [
      ["waiter_ai", "I want to order food"],
      ["waiter_ai", "ndashaka kurya"],
      ["waiter_ai", "je veux commander à manger"],
      ["pharmacy", "do you have paracetamol"],
      ["pharmacy", "mufite paracetamol"],
      ["pharmacy", "avez-vous du paracétamol"],
      ["mobility_orchestrator", "I need a taxi to Kimironko"],
      ["mobility_orchestrator", "ndashaka moto ijyana i Remera"],
      ["mobility_orchestrator", "je veux un taxi pour l'aéroport"],
      ["insurance", "I need car insurance"],
      ["insurance", "ndashaka ubwishingizi bw'imodoka"],
      ["insurance", "je veux assurer ma voiture"],
      ["property", "I want to rent a house in Kicukiro"],
      ["property", "ndashaka inzu yo gukodesha"],
      ["property", "je cherche une maison à louer"],
      ["legal_intake", "I need a lawyer for a land dispute"],
      ["legal_intake", "nkeneye umunyamategeko ku kibazo cy'ubutaka"],
      ["legal_intake", "j'ai besoin d'un avocat pour un litige foncier"],
    ];
    let user = 250788200000;
    for (const [agent, phrase] of cases) {
      const reply = await say(String(user++), { text: phrase });
      assert.equal(reply.agent, agent, phrase);
      assert.ok(text(reply.body).length > 0);
    }
  },
);

dbTest("an unclear message gets one clarifying question with the services list", async (db) => {
  const say = await channelOf(db);
  const reply = await say("250788300000", { text: "hmm ok" });
  assert.match(text(reply.body), /Which service/);
  const rows = choices(reply.body);
  assert.ok(rows.length > 1 && rows.length <= 10, JSON.stringify(rows));
  assert.ok(rows.every((row) => row.startsWith("agent:")));
  assert.ok(rows.includes("agent:support_handoff"));
});

dbTest(
  "a customer asking for staff-only work is told the team does it, in their language, with a person offered; a one-word French need is answered in French",
  async (db) => {
    const say = await channelOf(db);
    // The work is named by the packs that do it, in the person's language.
    const asks = [
      ["250788310000", "could you shoot a short advert film for my bakery", /our team.*video ads/],
      ["250788310001", "mwankorera agavideo kamamaza salon yanjye", /itsinda ryacu.*amashusho/],
      [
        "250788310002",
        "envoyez une annonce de mes soldes à tous vos abonnés",
        /notre équipe.*les messages à tous les clients/,
      ],
    ] as const;
    for (const [from, ask, said] of asks) {
      const reply = await say(from, { text: ask });
      assert.match(text(reply.body), said, ask);
      assert.deepEqual(choices(reply.body), ["agent:support_handoff"], ask);
      // Never a staff agent, never a service: the front desk answered.
      assert.equal(reply.agent, "concierge_router", ask);
    }
    // A new person's "pharmacie" reaches the pharmacy and is answered in French, not English.
    const pharmacy = await say("250788310003", { text: "pharmacie" });
    assert.equal(pharmacy.agent, "pharmacy");
    const [profile] = await db.query<{ locale: string }>(
      "select locale from public.profiles where phone = '+250788310003'",
    );
    assert.equal(profile.locale, "fr");
  },
);

dbTest(
  "a tenant without the video pack is told of the staff work it has, never of videos",
  async (db) => {
    // EasyMO's agent file without the video studio.
    const config = structuredClone(AGENT_CONFIGS) as {
      tenants: Record<string, { agents: Array<{ id: string }> }>;
    };
    const easymo = config.tenants.easymo;
    easymo.agents = easymo.agents.filter((agent) => agent.id !== "sora_video");
    const say = await channelOf(db, config);
    for (
      const [from, ask] of [
        ["250788310010", "make a promotional video for my shop"],
        ["250788310011", "ndashaka video yamamaza iduka ryanjye"],
        ["250788310012", "je veux une vidéo publicitaire pour ma boutique"],
      ] as const
    ) {
      const reply = await say(from, { text: ask });
      assert.equal(reply.agent, "concierge_router", ask);
      assert.doesNotMatch(text(reply.body), /vid[eé]o|amashusho/i, ask);
      assert.match(text(reply.body), /reports|raporo|rapports/, ask);
    }
  },
);

dbTest(
  "inside buy & sell, 0 / ahabanza / accueil go to the main menu and a number there picks, never searched",
  async (db) => {
    const say = await channelOf(db);
    const from = "250788400000";
    for (const home of ["0", "ahabanza", "accueil", "menyu"]) {
      const found = await say(from, { text: "I am looking for a phone charger" });
      assert.equal(found.agent, "buy_and_sell");
      const menu = await say(from, { text: home });
      assert.equal(menu.agent, "concierge_router", home);
      assert.ok(choices(menu.body).includes("agent:waiter_ai"), home);
      // The words for home name no language: the reply keeps the conversation's.
      assert.equal(text(menu.body), packText("concierge_router", "welcome", "en"));
    }
    // "2" at the menu is the second service, not a product.
    const picked = await say(from, { text: "2" });
    assert.equal(picked.agent, "mobility_orchestrator");
    assert.equal(text(picked.body), packText("mobility_orchestrator", "askVehicle", "en"));
    const [searched] = await db.query<{ n: number }>(
      "select count(*)::int as n from public.market_vendor_inquiries",
    );
    assert.equal(searched.n, 0);
  },
);

dbTest(
  "theft in each language, also mid-flow, raises an urgent ticket and reaches no vendor",
  async (db) => {
    const say = await channelOf(db);
    const thefts: Array<[Language, string]> = [
      ["en", "someone stole my phone"],
      ["rw", "banyibye telefoni"],
      ["fr", "on m'a volé mon téléphone"],
    ];
    let user = 250788500000;
    for (const [language, theft] of thefts) {
      const from = String(user++);
      await say(from, { text: "I am looking for a phone charger" });
      const reply = await say(from, { text: theft });
      assert.ok(
        text(reply.body).startsWith(packText("support_handoff", "handedOff", language)),
        theft,
      );
    }
    const tickets = await db.query<{ priority: string; reason: string }>(
      "select priority, reason from public.staff_tickets",
    );
    assert.equal(tickets.length, 3);
    assert.ok(tickets.every((t) => t.priority === "urgent" && t.reason === "sensitive topic"));
    const [asked] = await db.query<{ n: number }>(
      "select count(*)::int as n from public.market_vendor_inquiry_messages",
    );
    assert.equal(asked.n, 0);
  },
);

dbTest("a language change sticks across messages that name no language", async (db) => {
  const say = await channelOf(db);
  const from = "250788600000";
  const menu = await say(from, { text: "mvugishe mu Kinyarwanda" });
  assert.equal(text(menu.body), packText("concierge_router", "welcome", "rw"));
  const picked = await say(from, { text: "2" });
  assert.equal(text(picked.body), packText("mobility_orchestrator", "askVehicle", "rw"));
  const home = await say(from, { text: "menu" });
  assert.equal(text(home.body), packText("concierge_router", "welcome", "rw"));
  // It is hers now: what reaches her outside the conversation (an order's progress) is in it.
  const [profile] = await db.query<{ locale: string }>(
    "select locale from public.profiles where phone = '+' || $1",
    [from],
  );
  assert.equal(profile.locale, "rw");
});

dbTest("a change of mind mid-flow switches agent", async (db) => {
  const say = await channelOf(db);
  const from = "250788700000";
  assert.equal((await say(from, { text: "I want to order food" })).agent, "waiter_ai");
  const switched = await say(from, { text: "actually I need a taxi to Kimironko" });
  assert.equal(switched.agent, "mobility_orchestrator");
});
