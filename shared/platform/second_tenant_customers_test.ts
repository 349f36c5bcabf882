/**
 * The second tenant's customers, played through the real webhook, pipeline
 * and database on Beaver's Choice's number: what it runs (one warehouse, a
 * shop, a person) answers what they write, never EasyMO's agents or menu.
 */
import assert from "node:assert/strict";
import { createAgentHandler } from "@shared/agent/whatsapp_agent.ts";
import { createWhatsAppChannel } from "@shared/channels/whatsapp/channel.ts";
import { messageDelivery, type SimulatedContent } from "@shared/channels/whatsapp/payloads.ts";
import { signBody } from "@shared/channels/whatsapp/signature.ts";
import { dbTest, type TestDatabase } from "@testing/db.ts";
import { createTestRuntime } from "@testing/runtime.ts";
import { startTestStorage } from "@testing/storage.ts";
import { createSupabaseFileStore, FILE_STORE } from "@shared/storage/file_store.ts";

const SECRET = "second-tenant-app-secret";
const BEAVER_NUMBER = "100000000000002";
const WAREHOUSE = "d0000000-0000-4000-8000-000000000001";

interface Sent {
  text: string;
  choices: string[];
  /** A document sent (its link and file name). */
  document?: { link: string; filename: string };
}

/** A customer writing to Beaver's number, offline (no model), with the runtime's options. */
async function beaverPhone(
  db: TestDatabase,
  from: string,
  options: Parameters<typeof createTestRuntime>[1] = {},
  profileName?: string,
) {
  const rt = await createTestRuntime(db, options);
  const tasks: Promise<unknown>[] = [];
  const channel = createWhatsAppChannel(rt, {
    appSecret: SECRET,
    verifyToken: "v",
    conversation: createAgentHandler(rt, { model: null }),
    background: (task) => void tasks.push(task()),
  });
  let n = 0;
  return async function say(content: SimulatedContent): Promise<Sent> {
    const body = new TextEncoder().encode(JSON.stringify(
      messageDelivery(
        {
          from,
          wamid: `wamid.beaver.${from}.${n++}`,
          phoneNumberId: BEAVER_NUMBER,
          ...(profileName ? { name: profileName } : {}),
        },
        content,
      ),
    ));
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
    const sent = row?.body ?? {};
    const interactive = sent.interactive as
      | {
        body: { text: string };
        action?: {
          buttons?: Array<{ reply: { id: string } }>;
          sections?: Array<{ rows: Array<{ id: string }> }>;
        };
      }
      | undefined;
    const document = sent.document as
      | { link: string; filename: string; caption?: string }
      | undefined;
    return {
      ...(document ? { document: { link: document.link, filename: document.filename } } : {}),
      text: (sent.text as { body: string } | undefined)?.body ?? interactive?.body.text ??
        document?.caption ?? "",
      choices: [
        ...(interactive?.action?.buttons ?? []).map((button) => button.reply.id),
        ...(interactive?.action?.sections ?? []).flatMap((section) =>
          section.rows.map((row) => row.id)
        ),
      ],
    };
  };
}

dbTest(
  "one store has the item: the customer is told which and goes on to the read-back (en, fr)",
  async (db) => {
    const say = await beaverPhone(db, "250788000091");
    const asked = await say({ text: "I need 20 reams of A4 paper delivered to Remera" });
    assert.doesNotMatch(asked.text, /Where would you like/);
    assert.match(asked.text, /Beaver Paper Warehouse/);
    assert.match(asked.text, /20 × A4 paper \(500 sheets\)/);
    assert.deepEqual(asked.choices, ["agent_confirm", "agent_cancel"]);

    // A size names the product ("A3", not the cheapest paper of any size); a question is
    // answered with its price and stock, not an order to confirm.
    const sized = await (await beaverPhone(db, "250788000099"))({ text: "do you have A3 paper?" });
    assert.match(sized.text, /A3 paper \(500 sheets\): 13,000 RWF per ream/);
    assert.doesNotMatch(sized.text, /Please confirm/);

    const french = await beaverPhone(db, "250788000092");
    const demande = await french({ text: "commander 20 rames de papier A4" });
    assert.doesNotMatch(demande.text, /Où voulez-vous/);
    assert.match(demande.text, /Beaver Paper Warehouse/);
    // The product is named in the customer's language (the stock's names per language).
    assert.match(demande.text, /20 × Papier A4 \(500 feuilles\)/);
    assert.doesNotMatch(demande.text, /A4 paper/);
    assert.deepEqual(demande.choices, ["agent_confirm", "agent_cancel"]);
    // Cancel keeps the customer in the shop, free to choose something else.
    const cancelled = await french({ buttonReply: { id: "agent_cancel", title: "Annuler" } });
    assert.ok(cancelled.choices.some((id) => id.startsWith("item:")), JSON.stringify(cancelled));
    // Following up an order from inside the store is no new order line for "papier".
    const late = await french({ text: "j'ai commandé du papier et il n'est toujours pas arrivé" });
    assert.doesNotMatch(late.text, /Veuillez confirmer|1 × Papier/);
    assert.match(late.text, /équipe/);
    const [row] = await db.query<{ n: number }>(
      "select count(*)::int as n from public.orders where business_id = $1",
      [WAREHOUSE],
    );
    assert.equal(row.n, 0);
  },
);

dbTest(
  "a late order, an invoice or a damaged box reaches a person where no agent run answers it (en, fr, rw)",
  async (db) => {
    for (
      const [from, text, reason] of [
        ["250788000093", "my order is late", "follow-up of a purchase"],
        ["250788000094", "facture pour ma commande A-1001", "follow-up of a purchase"],
        ["250788000095", "ndashaka fagitire y'itumiza ryanjye", "follow-up of a purchase"],
        ["250788000096", "the box of paper arrived damaged", "complaint about a package"],
        ["250788000097", "ma commande est en retard", "follow-up of a purchase"],
        ["250788000098", "itumiza ryanjye ryatinze", "follow-up of a purchase"],
      ]
    ) {
      const say = await beaverPhone(db, from);
      const reply = await say({ text });
      assert.doesNotMatch(reply.text, /did not catch|pas bien compris|sinabyumvise/, text);
      assert.doesNotMatch(reply.text, /EasyMO/, text);
      const tickets = await db.query<{ reason: string; org_id: string }>(
        `select t.reason, t.org_id from public.staff_tickets t
         join public.conversations c on c.id = t.convo_id
         join public.profiles p on p.id = c.user_id
         where p.phone = $1`,
        [`+${from}`],
      );
      assert.deepEqual(tickets, [{
        reason,
        org_id: "b0000000-0000-4000-8000-000000000002",
      }], text);
    }
  },
);

dbTest(
  "a product's names are an object of strings per language, or nothing is written",
  async (db) => {
    await assert.rejects(
      db.query(`update public.products set names = '{"fr": 5}' where sku = 'A4-500'`),
      /products_names_object/,
    );
    await assert.rejects(
      db.query(`update public.products set names = '["Papier"]' where sku = 'A4-500'`),
      /products_names_object/,
    );
    const [row] = await db.query<{ names: Record<string, string> }>(
      "select names from public.products where sku = 'A4-500' and business_id = $1",
      [WAREHOUSE],
    );
    assert.equal(row.names.fr, "Papier A4 (500 feuilles)");
  },
);

dbTest(
  "a price question is answered first, then a quantity orders it (en, rw); a greeting before a need is the need (fr, rw)",
  async (db) => {
    const say = await beaverPhone(db, "250788000081");
    const price = await say({ text: "how much is A4 paper?" });
    assert.match(
      price.text,
      /A4 paper \(500 sheets\): 6,500 RWF per ream at Beaver Paper Warehouse/,
    );
    assert.doesNotMatch(price.text, /Please confirm/);
    assert.deepEqual(price.choices, []);
    const ordered = await say({ text: "20" });
    assert.match(ordered.text, /20 × A4 paper \(500 sheets\)/);
    assert.deepEqual(ordered.choices, ["agent_confirm", "agent_cancel"]);

    // Searched by its Kinyarwanda name only ("amabahasha" is in no English name, nor the router's
    // phrases), after a greeting; asked with a quantity, the total and a button to order.
    const rw = await (await beaverPhone(db, "250788000082"))({
      text: "Muraho, mufite amabahasha 3?",
    });
    assert.match(rw.text, /3 × Amabahasha C5 \(50\)/);
    assert.match(rw.text, /12,000 RWF/);
    assert.deepEqual(rw.choices, ["quote:3"]);

    const fr = await (await beaverPhone(db, "250788000083"))({
      text: "Bonjour, je voudrais des enveloppes C5",
    });
    assert.match(fr.text, /Enveloppes C5 \(50\)/);
    assert.doesNotMatch(fr.text, /De quoi avez-vous besoin/);
  },
);

dbTest(
  "a service the tenant does not run is said plainly, naming what it offers, in the person's language",
  async (db) => {
    for (
      const [from, text, said] of [
        ["250788000084", "I want a moto", /Beaver's Choice does not offer .*Shop/],
        [
          "250788000085",
          "je veux une moto pour aller à Remera",
          /Beaver's Choice ne propose pas .*Boutique/,
        ],
        ["250788000086", "ndashaka moto ijya i Kicukiro", /Beaver's Choice ntitanga .*Iduka/],
      ] as const
    ) {
      const reply = await (await beaverPhone(db, from))({ text });
      assert.match(reply.text, said, `${text}: ${reply.text}`);
      assert.doesNotMatch(reply.text, /EasyMO/, text);
      assert.ok(reply.choices.includes("agent:shop"), text);
      const [ride] = await db.query<{ n: number }>(
        "select count(*)::int as n from public.conversations c join public.profiles p on p.id = c.user_id where p.phone = $1 and c.agent_id = 'mobility_orchestrator'",
        [`+${from}`],
      );
      assert.equal(ride?.n ?? 0, 0, text);
    }
  },
);

dbTest(
  "opening hours are answered from the warehouse's hours, in the person's language (en, fr, rw)",
  async (db) => {
    const sunday = await (await beaverPhone(db, "250788000087"))({
      text: "are you open on Sunday?",
    });
    assert.match(
      sunday.text,
      /^Beaver Paper Warehouse is closed on Sunday\. It opens next on Monday at 08:00\./,
    );
    assert.ok(sunday.choices.includes("agent:shop"));
    const french = await (await beaverPhone(db, "250788000088"))({
      text: "Bonjour, vous ouvrez à quelle heure ?",
    });
    assert.match(french.text, /Horaires de Beaver Paper Warehouse/);
    assert.match(french.text, /• lundi–vendredi : 08:00–18:00/);
    assert.match(french.text, /• samedi : 09:00–13:00/);
    assert.match(french.text, /• dimanche : fermé/);
    assert.match(french.text, /Ouvert maintenant|Fermé maintenant/);
    const rw = await (await beaverPhone(db, "250788000089"))({ text: "murakora ku cyumweru?" });
    assert.match(rw.text, /Beaver Paper Warehouse ntikora ku cyumweru\./);
    assert.doesNotMatch(`${sunday.text}${french.text}${rw.text}`, /EasyMO|Café|Question Coffee/);
  },
);

dbTest(
  "how to pay, asked in the shop before any order, is answered, never searched (en, fr)",
  async (db) => {
    const say = await beaverPhone(db, "250788000080");
    await say({ text: "do you have cardstock?" });
    const how = await say({ text: "Can I pay with MoMo?" });
    assert.match(how.text, /MoMo payment request/);
    assert.doesNotMatch(how.text, /could not find/);
    const fr = await beaverPhone(db, "250788000079");
    await fr({ text: "vous avez du papier A3 ?" });
    const comment = await fr({ text: "je peux payer par momo ?" });
    assert.match(comment.text, /demande de paiement MoMo/);
  },
);

dbTest(
  "how to pay, asked as a first message, is answered from the tenant's MoMo account (fr, rw, en)",
  async (db) => {
    const fr = await (await beaverPhone(db, "250788000078"))({ text: "Je peux payer par MoMo ?" });
    assert.match(fr.text, /^Oui, Beaver's Choice accepte MoMo/);
    assert.ok(fr.choices.includes("agent:shop"), JSON.stringify(fr));
    const rw = await (await beaverPhone(db, "250788000077"))({
      text: "ese nakwishyura kuri MoMo?",
    });
    assert.match(rw.text, /^Yego, Beaver's Choice yakira MoMo/);
    // Without a MoMo account on record it is not promised: a person says how to pay.
    await db.query(
      `update public.orgs set momo_merchant_phone = null, momo_merchant_code = null
       where slug = 'beaver-paper'`,
    );
    const en = await (await beaverPhone(db, "250788000076"))({ text: "Can I pay with MoMo?" });
    assert.match(en.text, /takes no payment in this chat/);
    assert.ok(en.choices.includes("agent:support_handoff"), JSON.stringify(en));
    assert.doesNotMatch(`${fr.text}${rw.text}${en.text}`, /EasyMO|did not catch|pas bien compris/);
  },
);

dbTest(
  "a bank transfer, a card or paying on delivery is never promised: MoMo is said, and a person (fr, rw, en)",
  async (db) => {
    // As a first message: the front desk, its person button.
    const fr = await (await beaverPhone(db, "250788000071"))({
      text: "Vous acceptez le virement bancaire ?",
    });
    assert.match(
      fr.text,
      /^Beaver's Choice accepte MoMo ici dans la discussion\. Pour le virement/,
    );
    assert.ok(fr.choices.includes("agent:support_handoff"), JSON.stringify(fr));
    // In the shop: the place's name, never a MoMo request, never a stock search.
    const rw = await beaverPhone(db, "250788000070");
    await rw({ text: "mufite impapuro A4?" });
    const bank = await rw({ text: "Nshobora kwishyura kuri banki?" });
    assert.match(
      bank.text,
      /yishyurwa na MoMo hano mu kiganiro\. Niba kwishyura unyuze kuri banki/,
    );
    const en = await (await beaverPhone(db, "250788000069"))({ text: "can I pay on delivery?" });
    assert.match(en.text, /Whether paying on delivery is possible, I cannot tell you/);
    assert.doesNotMatch(
      `${fr.text}${bank.text}${en.text}`,
      /^(Yes|Oui|Yego)|could not find|Sinabonye/,
    );
  },
);

dbTest(
  "several items in one message are read whole and confirmed whole (en, fr, rw), also after a price",
  async (db) => {
    const en = await (await beaverPhone(db, "250788000075"))({
      text: "40 reams of A4 and 10 boxes of envelopes, can you deliver?",
    });
    assert.match(en.text, /40 × A4 paper \(500 sheets\) — 260,000 RWF\n10 × C5 envelopes \(50\)/);
    assert.match(en.text, /Total: 300,000 RWF/);
    assert.deepEqual(en.choices, ["agent_confirm", "agent_cancel"]);
    const fr = await (await beaverPhone(db, "250788000074"))({
      text: "Je voudrais 20 rames de papier A4 et 5 paquets de papier cartonné",
    });
    assert.match(fr.text, /20 × Papier A4 \(500 feuilles\)[^\n]*\n5 × Papier cartonné 200 g\/m²/);
    const say = await beaverPhone(db, "250788000073");
    // The words after "impapuro" name which paper: the cardstock, not the cheapest paper.
    const asked = await say({ text: "mufite impapuro zikomeye?" });
    assert.match(asked.text, /^Impapuro zikomeye 200gsm: 9,000 RWF/);
    const carton = await (await beaverPhone(db, "250788000071"))({
      text: "vous avez du papier cartonné ?",
    });
    assert.match(carton.text, /^Papier cartonné 200 g\/m² : 9 000 RWF/);
    const rw = await say({ text: "ndashaka ipaki 3 z'impapuro zikomeye na amabahasha 2" });
    assert.match(rw.text, /3 × Impapuro zikomeye 200gsm[^\n]*\n2 × Amabahasha C5 \(50\)/);
    assert.match(rw.text, /Igiteranyo: 35,000 RWF/);
    // One not stocked: said, nothing drafted.
    const partly = await (await beaverPhone(db, "250788000072"))({
      text: "10 reams of A4 and 5 staplers",
    });
    assert.match(partly.text, /“5 staplers”/);
    assert.doesNotMatch(partly.text, /Please confirm/);
  },
);

dbTest(
  "a proforma is priced from the stock and the team asked with its items and the name (en, fr, rw)",
  async (db) => {
    const from = "250788000070";
    const storage = await startTestStorage(db);
    const say = await beaverPhone(db, from, {
      provide: [{ key: FILE_STORE, value: storage.files }],
    });
    const asked = await say({ text: "I need a proforma for 50 reams of A4 for our school" });
    assert.match(asked.text, /50 × A4 paper \(500 sheets\) — 325,000 RWF\nTotal: 325,000 RWF/);
    // The profile's name is offered; another name may be written.
    assert.match(asked.text, /Shall I make your proforma out to WhatsApp user\? Tap it, or write/);
    assert.deepEqual(asked.choices, ["proforma:profile_name"]);
    assert.doesNotMatch(asked.text, /Please confirm/);
    const named = await say({ text: "Groupe Scolaire Remera" });
    // Said back in English (a school's French name carries no language), as a PDF to file.
    assert.match(
      named.text,
      /^Here is your proforma PF-\d{4}-000001 for Groupe Scolaire Remera: total 325,000 RWF, valid until /,
    );
    assert.match(named.document?.filename ?? "", /^PF-\d{4}-000001\.pdf$/);
    const pdf = await fetch(named.document!.link);
    assert.equal(pdf.status, 200);
    assert.equal(new TextDecoder().decode((await pdf.bytes()).subarray(0, 5)), "%PDF-");
    const [kept] = await db.query<{ customer_name: string; total: string; language: string }>(
      "select customer_name, total::text, language from public.proformas",
    );
    assert.deepEqual(kept, {
      customer_name: "Groupe Scolaire Remera",
      total: "325000.00",
      language: "en",
    });
    // One request is one ticket: the name is added to the proforma's ticket.
    const proformas = await db.query<{ summary: string }>(
      `select t.summary from public.staff_tickets t
       join public.conversations c on c.id = t.convo_id
       join public.profiles p on p.id = c.user_id
       where p.phone = $1 and t.reason = 'proforma request'`,
      [`+${from}`],
    );
    assert.equal(proformas.length, 1, JSON.stringify(proformas));
    assert.match(
      proformas[0].summary,
      /325,000 RWF[\s\S]*Proforma PF-\d{4}-000001 issued to “Groupe Scolaire Remera”: 325,000 RWF, valid until \d{4}-\d\d-\d\d\. http/,
    );
    // Their own proforma tickets never stand ahead of them in the queue for a person.
    const person = await say({ text: "talk to someone" });
    assert.match(person.text, /(number|numéro|uri) 1\b/, person.text);
    const tickets = await db.query<{ reason: string; summary: string; org_id: string }>(
      `select t.reason, t.summary, t.org_id from public.staff_tickets t
       join public.conversations c on c.id = t.convo_id
       join public.profiles p on p.id = c.user_id
       where p.phone = $1 order by t.created_at`,
      [`+${from}`],
    );
    assert.ok(tickets.length >= 1, JSON.stringify(tickets));
    const all = tickets.map((ticket) => ticket.summary).join("\n");
    assert.match(all, /50 × A4 paper \(500 sheets\) @ 6,500 RWF = 325,000 RWF/);
    assert.match(all, /Groupe Scolaire Remera/);
    assert.ok(tickets.every((ticket) => ticket.org_id === "b0000000-0000-4000-8000-000000000002"));
    const [orders] = await db.query<{ n: number }>(
      "select count(*)::int as n from public.orders where business_id = $1",
      [WAREHOUSE],
    );
    assert.equal(orders.n, 0);

    const fr = await (await beaverPhone(db, "250788000069"))({
      text:
        "Bonjour, pouvez-vous m'envoyer une facture proforma pour 30 rames de papier A4 et 10 boîtes d'enveloppes ?",
    });
    assert.match(fr.text, /30 × Papier A4 \(500 feuilles\)[^\n]*\n10 × Enveloppes C5 \(50\)/);
    assert.match(fr.text, /Total : 235 000 RWF/);
    const rwSay = await beaverPhone(db, "250788000068", {
      provide: [{ key: FILE_STORE, value: storage.files }],
    });
    const rw = await rwSay({ text: "Ndashaka proforma y'impapuro A4 ipaki 20 ku ishuri ryacu" });
    assert.match(rw.text, /20 × Impapuro A4 \(impapuro 500\)/);
    // In Kinyarwanda, the tenant's next number.
    const rwNamed = await rwSay({ text: "Ishuri ribanza rya Kacyiru" });
    assert.match(
      rwNamed.text,
      /^Dore proforma yawe PF-\d{4}-000002 yanditswe kuri Ishuri ribanza rya Kacyiru: igiteranyo 130,000 RWF/,
    );
    assert.match(rwNamed.document?.filename ?? "", /^PF-\d{4}-000002\.pdf$/);
    await storage.close();
    // No items named: the team is asked, the customer told what to write.
    const bare = await (await beaverPhone(db, "250788000067"))({ text: "can I get a quotation?" });
    assert.match(bare.text, /Write the items and quantities/);
  },
);

dbTest(
  "a service or item the business does not have is said plainly from its stock, with what it has (en, fr, rw)",
  async (db) => {
    for (
      const [from, text, said] of [
        [
          "250788000066",
          "do you do photocopy?",
          /^Beaver Paper Warehouse does not have “photocopy”/,
        ],
        [
          "250788000065",
          "Vous faites des photocopies ?",
          /^Beaver Paper Warehouse n'a pas « photocopies »/,
        ],
        ["250788000064", "Mukora fotokopi?", /^Beaver Paper Warehouse ntifite “fotokopi”/],
      ] as const
    ) {
      const reply = await (await beaverPhone(db, from))({ text });
      assert.match(reply.text, said, reply.text);
      assert.ok(reply.choices.includes("item:A4-500"), text);
      assert.doesNotMatch(reply.text, /EasyMO|Hi! I'm/, text);
    }
  },
);

dbTest(
  "a new quantity typed at the read-back redrafts it, never a search for the words (rw, fr, en)",
  async (db) => {
    for (
      const [from, first, change, said] of [
        [
          "250788000063",
          "ndashaka impapuro A4 ipaki 20",
          "oya, ahubwo ipaki 25",
          /^Emeza: .*\n25 × Impapuro A4/,
        ],
        ["250788000062", "je voudrais 10 rames de papier A3", "non, plutôt 12", /\n12 × Papier A3/],
        ["250788000061", "I need 20 reams of A4 paper", "make it 30 reams", /\n30 × A4 paper/],
      ] as const
    ) {
      const say = await beaverPhone(db, from);
      await say({ text: first });
      const changed = await say({ text: change });
      assert.match(changed.text, said, `${change}: ${changed.text}`);
      assert.deepEqual(changed.choices, ["agent_confirm", "agent_cancel"], change);
    }
  },
);

dbTest(
  "delivery asked in the order's words is offered once it is placed, whatever its size (en, fr)",
  async (db) => {
    const say = await beaverPhone(db, "250788000060");
    await say({ text: "I need 30 reams of A4 paper delivered to Remera" });
    const placed = await say({ buttonReply: { id: "agent_confirm", title: "Confirm" } });
    assert.match(placed.text, /You asked for delivery: tap “Delivery”/);
    assert.ok(placed.choices.some((id) => id.startsWith("delivery:")), JSON.stringify(placed));
    const fr = await beaverPhone(db, "250788000059");
    await fr({ text: "je voudrais 2 rames de papier A3, livrez à Kicukiro svp" });
    const passed = await fr({ buttonReply: { id: "agent_confirm", title: "Confirmer" } });
    assert.match(passed.text, /Vous avez demandé une livraison/);
    // Not asked: no delivery offered on a small order.
    const plain = await beaverPhone(db, "250788000058");
    await plain({ text: "I need 2 reams of A3 paper" });
    const small = await plain({ buttonReply: { id: "agent_confirm", title: "Confirm" } });
    assert.ok(!small.choices.some((id) => id.startsWith("delivery:")), JSON.stringify(small));
  },
);

dbTest(
  "delivery is answered from the warehouse's delivery data in the customer's language (rw, fr, en)",
  async (db) => {
    // Another tenant's place delivering to Nyamata is none of Beaver's customers' business.
    await db.query(
      `insert into public.delivery_areas (org_id, business_id, area, fee)
       values ('a0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000003',
               'Nyamata', 1000)`,
    );
    const rw = await (await beaverPhone(db, "250788000081"))({ text: "mukora delivery i Remera?" });
    assert.match(rw.text, /^Yego, Beaver Paper Warehouse igeza ibicuruzwa i Remera: 2,000 RWF/);
    assert.doesNotMatch(rw.text, /A3|paper \(500/);

    const fr = await (await beaverPhone(db, "250788000082"))({ text: "vous livrez à Kicukiro ?" });
    assert.match(fr.text, /^Oui, Beaver Paper Warehouse livre à Kicukiro : 2 500 RWF/);

    const en = await (await beaverPhone(db, "250788000083"))({
      text: "do you deliver to Nyamata, how much?",
    });
    assert.match(en.text, /does not deliver to Nyamata\. It delivers to: Masoro \(free\)/);
    assert.match(en.text, /Remera \(2,000 RWF\)/);
    assert.match(en.text, /collect your order at Kigali Special Economic Zone, Masoro/);
    assert.doesNotMatch(en.text, /Kicukiro Hardware|1,000 RWF/);

    // Asked inside the shop, after a price: the place's delivery, not a stock search.
    const shopper = await beaverPhone(db, "250788000084");
    await shopper({ text: "do you have A3 paper?" });
    const inShop = await shopper({ text: "Do you deliver to Gisozi?" });
    assert.match(inShop.text, /^Yes, Beaver Paper Warehouse delivers to Gisozi: 2,500 RWF/);
    // An order that asks for delivery is still an order.
    const order = await shopper({ text: "10 reams of A4 delivered to Remera" });
    assert.match(order.text, /10 × A4 paper/);

    // Asked at the read-back: answered, and the order read back again to confirm, never dropped.
    const client = await beaverPhone(db, "250788000087");
    await client({ text: "je voudrais 5 rames de papier A4" });
    const readBack = await client({ text: "vous livrez à Remera ?" });
    assert.match(readBack.text, /5 × Papier A4/);
    assert.deepEqual(readBack.choices, ["agent_confirm", "agent_cancel"]);
    const [answered] = await db.query<{ n: number }>(
      `select count(*)::int as n from public.wa_outbox
       where to_wa_id = '250788000087' and body::text like '%livre à Remera : 2 000 RWF%'`,
    );
    assert.equal(answered.n, 1);
    const placed = await client({ text: "oui" });
    assert.ok(placed.choices.some((id) => id.startsWith("delivery:")), JSON.stringify(placed));
  },
);

dbTest(
  "a place that does not deliver says where to collect; one without delivery data offers a person",
  async (db) => {
    await db.query("update public.businesses set pickup_only = true where id = $1", [WAREHOUSE]);
    const pickup = await (await beaverPhone(db, "250788000085"))({
      text: "est-ce que vous faites la livraison ?",
    });
    assert.match(
      pickup.text,
      /^Beaver Paper Warehouse ne livre pas : vous retirez votre commande à Kigali Special Economic Zone, Masoro\./,
    );

    await db.query("update public.businesses set pickup_only = false where id = $1", [WAREHOUSE]);
    await db.query("delete from public.delivery_areas where business_id = $1", [WAREHOUSE]);
    const unknown = await (await beaverPhone(db, "250788000086"))({
      text: "mwangezaho impapuro i Nyamata?",
    });
    // The paper it names is the shop's to answer: where it is and its price, then the delivery.
    assert.match(
      unknown.text,
      /^Impapuro A4 \(impapuro 500\): 6,500 RWF kuri Beaver Paper Warehouse\.\n\nNta makuru mfite ku buryo Beaver Paper Warehouse igeza/,
    );
    assert.equal(unknown.choices?.at(-1), "agent:support_handoff");
  },
);

/** A Storage service that is down for good: every request answers 503, as Supabase's gateway does. */
function startBrokenStorage(): {
  files: ReturnType<typeof createSupabaseFileStore>;
  close(): Promise<void>;
} {
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    () =>
      Response.json({ statusCode: "503", error: "Service Unavailable", message: "storage down" }, {
        status: 503,
      }),
  );
  const url = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  return {
    files: createSupabaseFileStore({ url, key: "service-key" }),
    close: () => server.shutdown(),
  };
}

dbTest(
  "a proforma goes to the profile's name or to an organisation with its TIN; without Storage the number still reaches the customer (en, fr, rw)",
  async (db) => {
    const storage = await startTestStorage(db);
    const broken = startBrokenStorage();
    try {
      // The profile's name, tapped.
      const jean = await beaverPhone(db, "250788000057", {
        provide: [{ key: FILE_STORE, value: storage.files }],
      }, "Jean Bosco");
      const offered = await jean({ text: "I need a proforma for 10 reams of A4" });
      assert.match(offered.text, /make your proforma out to Jean Bosco\?/);
      const mine = await jean({
        buttonReply: { id: "proforma:profile_name", title: "Jean Bosco" },
      });
      assert.match(
        mine.text,
        /^Here is your proforma PF-\d{4}-\d{6} for Jean Bosco: total 65,000 RWF/,
      );
      assert.match(mine.document?.filename ?? "", /^PF-\d{4}-\d{6}\.pdf$/);

      // A school with its TIN (in French): kept apart from the name, printed on the PDF.
      const ecole = await beaverPhone(db, "250788000056", {
        provide: [{ key: FILE_STORE, value: storage.files }],
      }, "Marie");
      const prix = await ecole({ text: "une facture proforma pour 20 rames de papier A4 svp" });
      assert.match(prix.text, /au nom de Marie \?/);
      // A TIN that is not 9 digits is asked again, nothing issued.
      const badTin = await ecole({ text: "Ecole Sainte Famille, NIF 10234567" });
      assert.match(badTin.text, /^Un NIF \(TIN\) a 9 chiffres ; j'ai lu 10234567\./);
      const issued = await ecole({ text: "Ecole Sainte Famille, NIF 102 345 678" });
      assert.match(
        issued.text,
        /^Voici votre facture proforma PF-\d{4}-\d{6} au nom de Ecole Sainte Famille \(TIN 102345678\)/,
      );
      const [kept] = await db.query<{ customer_name: string; customer_tin: string }>(
        "select customer_name, customer_tin from public.proformas where customer_tin is not null",
      );
      assert.deepEqual(kept, { customer_name: "Ecole Sainte Famille", customer_tin: "102345678" });
      const pdf = await fetch(issued.document!.link);
      assert.equal(pdf.status, 200);
      await pdf.body?.cancel();

      // Storage down for good: the proforma is still issued, the customer gets its number and
      // total in their words, and staff see that its PDF is theirs to send.
      const down = await beaverPhone(db, "250788000055", {
        provide: [{ key: FILE_STORE, value: broken.files }],
      }, "Uwase");
      await down({ text: "Ndashaka proforma y'impapuro A4 ipaki 20" });
      const noPdf = await down({ text: "GS Kacyiru" });
      assert.match(
        noPdf.text,
        /^Proforma yawe PF-\d{4}-\d{6} yanditswe kuri GS Kacyiru yatanzwe: igiteranyo 130,000 RWF, ifite agaciro kugeza .*Sinashoboye gukora PDF yayo ubu; abakozi bacu barayikoherereza hano\./,
      );
      assert.equal(noPdf.document, undefined);
      const [ticket] = await db.query<{ summary: string; org_id: string }>(
        `select t.summary, t.org_id from public.staff_tickets t
         join public.conversations c on c.id = t.convo_id
         join public.profiles p on p.id = c.user_id
         where p.phone = '+250788000055' and t.reason = 'proforma request'`,
      );
      assert.match(
        ticket.summary,
        /Proforma PF-\d{4}-\d{6} issued to “GS Kacyiru”: 130,000 RWF, valid until [\d-]+\. Its PDF could not be made \(.+\): please send it\./,
      );
      assert.equal(ticket.org_id, "b0000000-0000-4000-8000-000000000002");
    } finally {
      await broken.close();
      await storage.close();
    }
  },
);

dbTest(
  "opening hours asked on Beaver's number list Beaver's places only (fr, en, rw)",
  async (db) => {
    for (
      const [from, text] of [
        // Aline is EasyMO's customer too: her membership there shows nothing of EasyMO here.
        ["250788000001", "Vous êtes ouverts le 1er janvier ?"],
        ["250788000053", "are you open on Christmas day?"],
        ["250788000052", "Mukora ku cyumweru?"],
        // A holiday asked in Kinyarwanda is an hours question, never a stock search.
        ["250788000051", "Mukora ku munsi mukuru w'intwari?"],
      ] as const
    ) {
      const reply = await (await beaverPhone(db, from))({ text });
      assert.match(reply.text, /Beaver Paper Warehouse/, text);
      // Hours, never the stock searched for the question's words.
      assert.doesNotMatch(reply.text, /ntifite|does not have|n'a pas/, text);
      if (/intwari|janvier|Christmas/.test(text)) {
        assert.match(
          reply.text,
          /^(Amasaha yo ku minsi mikuru ntayo dufite|Hours on public holidays are not on record|Les horaires des jours fériés ne sont pas enregistrés)/,
          text,
        );
      }
      assert.doesNotMatch(
        reply.text,
        /Café|Nyamirambo|Brochettes|Kiyovu|Question Coffee/,
        reply.text,
      );
    }
  },
);

dbTest(
  "a damaged box or a lost order said in Kinyarwanda in the shop is followed up, never ordered",
  async (db) => {
    const say = await beaverPhone(db, "250788000051");
    await say({ text: "Impapuro A4 ipaki 10, amabahasha 5 n'impapuro zikomeye 2 ni angahe?" });
    const damaged = await say({
      text: "Ikarito y'impapuro nahawe yangiritse, ndashaka kuyisubiza",
    });
    assert.doesNotMatch(damaged.text, /1 × Impapuro A4/, damaged.text);
    const where = await say({ text: "Komande yanjye iri he?" });
    assert.doesNotMatch(where.text, /ntifite “komande/, where.text);
    const [row] = await db.query<{ n: number }>(
      "select count(*)::int as n from public.orders where business_id = $1",
      [WAREHOUSE],
    );
    assert.equal(row.n, 0);
    const tickets = await db.query<{ summary: string }>(
      `select t.summary from public.staff_tickets t
       join public.conversations c on c.id = t.convo_id
       join public.profiles p on p.id = c.user_id where p.phone = '+250788000051'`,
    );
    assert.ok(
      tickets.some((ticket) => /yangiritse/.test(ticket.summary)),
      JSON.stringify(tickets),
    );
  },
);
