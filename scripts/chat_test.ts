import assert from "node:assert/strict";
import { startTestDevServer, type TestDevServer } from "@testing/dev_cli.ts";
import {
  type Choice,
  choicesOf,
  messageLines,
  type OutboxRow,
  parseLine,
  renderRow,
} from "./_chat_render.ts";
import { choose, roleOf } from "./chat.ts";
import { approvedTemplateBodies, parseTemplateBodies } from "./_template_bodies.ts";

const CHAT = new URL("./chat.ts", import.meta.url).pathname;
/** Generous: messages to one number are spaced by Meta's pair rate (about 6 s). */
const WAIT_MS = 90_000;

/** One simulator process, fed line by line, its output collected. */
class Simulator {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #reading: Promise<void>;
  output = "";
  errors = "";

  constructor(args: string[], env: Record<string, string>) {
    this.#child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CHAT, ...args],
      env,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    const collect = async (stream: ReadableStream<Uint8Array>, into: "output" | "errors") => {
      for await (const text of stream.pipeThrough(new TextDecoderStream())) this[into] += text;
    };
    this.#reading = Promise.all([
      collect(this.#child.stdout, "output"),
      collect(this.#child.stderr, "errors"),
    ]).then(() => {});
  }

  async say(line: string): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(`${line}\n`));
  }

  /** Waits until the output after `from` matches; returns the match's end offset. */
  async waitFor(pattern: RegExp, from = 0): Promise<number> {
    const deadline = Date.now() + WAIT_MS;
    while (Date.now() < deadline) {
      const match = pattern.exec(this.output.slice(from));
      if (match) return from + match.index + match[0].length;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(
      `no ${pattern} in the simulator's output:\n${this.output}\nstderr:\n${this.errors}`,
    );
  }

  /** Ends input and waits for the exit code. */
  async finish(): Promise<number> {
    await this.#writer.close().catch(() => {});
    const { code } = await this.#child.status;
    await this.#reading;
    return code;
  }
}

Deno.test("parseLine reads text and commands", () => {
  assert.deepEqual(parseLine("  paracetamol "), { type: "text", text: "paracetamol" });
  assert.deepEqual(parseLine(""), { type: "empty" });
  assert.deepEqual(parseLine("/loc -1.95 30.09 Home sweet"), {
    type: "location",
    latitude: -1.95,
    longitude: 30.09,
    name: "Home sweet",
  });
  assert.equal((parseLine("/loc Remera") as { name: string }).name, "Remera, Kigali");
  assert.equal(parseLine("/loc 200 1").type, "error");
  assert.deepEqual(parseLine("/tap 2"), { type: "tap", choice: "2" });
  // One verb: /pick is /tap.
  assert.deepEqual(parseLine("/pick Pharmacie Kacyiru"), {
    type: "tap",
    choice: "Pharmacie Kacyiru",
  });
  assert.deepEqual(parseLine("/paid pay-7k3qx"), {
    type: "paid",
    ref: "PAY-7K3QX",
    status: "SUCCESSFUL",
  });
  assert.deepEqual(parseLine("/paid PAY-7K3QX failed 1200"), {
    type: "paid",
    ref: "PAY-7K3QX",
    status: "FAILED",
    amount: 1200,
  });
  assert.equal(parseLine("/paid PAY-1 MAYBE").type, "error");
  assert.deepEqual(parseLine("/sms You have received 1,200 RWF"), {
    type: "sms",
    text: "You have received 1,200 RWF",
  });
  assert.deepEqual(parseLine("/reply YES 1500 2"), {
    type: "text",
    text: "YES 1500 2",
    reply: true,
  });
  assert.deepEqual(parseLine("/image box.jpg a box"), {
    type: "media",
    mediaType: "image",
    path: "box.jpg",
    caption: "a box",
  });
  assert.deepEqual(parseLine("/doc ./q.pdf"), {
    type: "media",
    mediaType: "document",
    path: "./q.pdf",
  });
  assert.equal(parseLine("/doc").type, "error");
  assert.deepEqual(parseLine("/wait 1.5"), { type: "wait", seconds: 1.5 });
  assert.equal(parseLine("/wait soon").type, "error");
  assert.deepEqual(parseLine("/clock 2026-11-28 08:00"), {
    type: "clock",
    at: "2026-11-28T08:00:00+02:00",
  });
  assert.deepEqual(parseLine("/clock 2026-11-28T06:00:00Z"), {
    type: "clock",
    at: "2026-11-28T06:00:00Z",
  });
  assert.equal(parseLine("/clock tomorrow").type, "error");
  assert.equal(parseLine("/dance").type, "error");
  assert.deepEqual(parseLine("/quit"), { type: "quit" });
});

Deno.test("renderRow shows buttons, lists and templates as a phone does", () => {
  const row = (kind: string, body: Record<string, unknown>): OutboxRow => ({
    id: "1",
    kind,
    body,
    status: "sent",
    wamid: "wamid.local.1",
    created_at: "2026-11-22T10:42:03.123456Z",
  });
  const buttons = row("buttons", {
    type: "interactive",
    interactive: {
      type: "button",
      body: { text: "Have it?" },
      action: {
        buttons: [
          { type: "reply", reply: { id: "vendor_yes", title: "Yes" } },
          { type: "reply", reply: { id: "vendor_no", title: "No" } },
        ],
      },
    },
  });
  assert.equal(renderRow(buttons), "── EasyMO · 10:42:03 · sent\nHave it?\n[1] Yes  [2] No");
  assert.equal(
    renderRow(buttons, { color: true }),
    "\x1b[2m── EasyMO · 10:42:03 · sent\x1b[22m\nHave it?\n[1] Yes  [2] No",
  );
  const list = row("list", {
    type: "interactive",
    interactive: {
      type: "list",
      body: { text: "Pick one" },
      action: {
        button: "Vendors",
        sections: [{ title: "Near", rows: [{ id: "a", title: "A", description: "0.2 km" }] }, {
          title: "Far",
          rows: [{ id: "b", title: "B" }],
        }],
      },
    },
  });
  assert.equal(
    renderRow(list).split("\n").slice(1).join("\n"),
    "Pick one\n☰ Vendors\n  Near\n  [1] A — 0.2 km\n  Far\n  [2] B",
  );
  const template = row("template", {
    type: "template",
    template: {
      name: "vendor_inquiry",
      language: { code: "en" },
      components: [
        { type: "body", parameters: [{ type: "text", text: "paracetamol × 2" }] },
        {
          type: "button",
          sub_type: "quick_reply",
          index: 0,
          parameters: [{ type: "payload", payload: "YES" }],
        },
        {
          type: "button",
          sub_type: "quick_reply",
          index: 1,
          parameters: [{ type: "payload", payload: "NO" }],
        },
      ],
    },
  });
  // Titled by button index, as approved: the payloads are only what a tap sends back.
  assert.equal(
    renderRow(template).split("\n").slice(1).join("\n"),
    "template vendor_inquiry (en): paracetamol × 2\n[1] Yes  [2] No",
  );
  const offer = "c34f1a52-8d0e-4b6f-9a51-7e2d3c4b5a69";
  const rideOffer = (code: string) =>
    row("template", {
      type: "template",
      template: {
        name: "ride_offer",
        language: { code },
        components: [
          {
            type: "body",
            parameters: ["Remera", "300 m", "Nyabugogo", "1,500–2,000 RWF"].map((text) => ({
              type: "text",
              text,
            })),
          },
          ...["accept", "decline"].map((answer, index) => ({
            type: "button",
            sub_type: "quick_reply",
            index,
            parameters: [{ type: "payload", payload: `ride:${offer}:${answer}` }],
          })),
        ],
      },
    });
  assert.equal(
    renderRow(rideOffer("rw_RW")).split("\n").slice(1).join("\n"),
    "template ride_offer (rw_RW): Remera, 300 m, Nyabugogo, 1,500–2,000 RWF\n[1] Emera  [2] Anga",
  );
  assert.match(renderRow(rideOffer("fr")), /\n\[1\] Accepter {2}\[2\] Refuser$/);
  // With the approved bodies, as the phone shows it: the body's text with its parameters, in the
  // template's language (never "template vendor_inquiry (fr): …").
  const templates = approvedTemplateBodies();
  assert.equal(
    renderRow(rideOffer("fr"), { templates }).split("\n").slice(1).join("\n"),
    "Course EasyMO : prise en charge près de Remera (à 300 m de vous) vers Nyabugogo, " +
      "1,500–2,000 RWF. Le premier qui accepte l'obtient.\n[1] Accepter  [2] Refuser",
  );
  assert.equal(
    renderRow(template, { templates }).split("\n").slice(1).join("\n"),
    "EasyMO: Do you have: paracetamol × 2? Reply YES + price or NO.\n[1] Yes  [2] No",
  );
  // Another tenant's number sends the bodies approved for it: its brand, never EasyMO's.
  assert.equal(
    renderRow({ ...template, sender: "Beaver's Choice" }, { templates }),
    "── Beaver's Choice · 10:42:03 · sent\n" +
      "Beaver's Choice: Do you have: paracetamol × 2? Reply YES + price or NO.\n[1] Yes  [2] No",
  );
  // Tapping by number or by title sends the payload the driver counterpart reads.
  assert.deepEqual(choose(choicesOf(rideOffer("en").body), "1"), {
    quickReply: { payload: `ride:${offer}:accept`, text: "Accept" },
  });
  assert.deepEqual(choose(choicesOf(rideOffer("en").body), "decline"), {
    quickReply: { payload: `ride:${offer}:decline`, text: "Decline" },
  });
  const newOrder = row("template", {
    type: "template",
    template: {
      name: "venue_new_order",
      language: { code: "fr" },
      components: [
        { type: "body", parameters: [{ type: "text", text: "A-1042" }] },
        ...["confirmed", "cancelled"].map((status, index) => ({
          type: "button",
          sub_type: "quick_reply",
          index,
          parameters: [{ type: "payload", payload: `order:A-1042:${status}` }],
        })),
      ],
    },
  });
  assert.match(renderRow(newOrder), /\n\[1\] Confirmer {2}\[2\] Annuler$/);
  assert.deepEqual(choose([{ kind: "quick", payload: "NO", text: "NO" }], "1"), {
    quickReply: { payload: "NO", text: "NO" },
  });
  assert.deepEqual(choose([{ kind: "button", id: "vendor_no", title: "No" }], "no"), {
    buttonReply: { id: "vendor_no", title: "No" },
  });
  // Nothing made up or stale is sent: an unknown option is a local error naming the real ones.
  const offered: Choice[] = [{ kind: "row", id: "concierge_pick:x", title: "Pharmacie Kacyiru" }];
  assert.equal(
    choose(offered, "3"),
    "there is no option 3 on the latest message: [1] Pharmacie Kacyiru",
  );
  assert.equal(
    choose(offered, "Ask them"),
    "no option “Ask them” on the latest message: [1] Pharmacie Kacyiru",
  );
  assert.deepEqual(choose(offered, "pharmacie kacyiru"), {
    listReply: { id: "concierge_pick:x", title: "Pharmacie Kacyiru" },
  });
});

Deno.test("messageLines shows a video with its caption and link, as a phone does", () => {
  const link = "http://127.0.0.1:54321/storage/v1/object/sign/media/o/videos/v.mp4?token=t";
  assert.deepEqual(
    messageLines({ type: "video", video: { link, caption: "Your video is ready: a moto" } }),
    ["🎬 video — Your video is ready: a moto", `   ${link}`],
  );
});

Deno.test("chat exits 2 on usage errors and 1 when the dev server is unreachable", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const run = async (args: string[], env: Record<string, string> = {}) => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", CHAT, ...args],
      env: { EASYMO_SECRET: "x".repeat(40), NO_COLOR: "1", ...env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
  };
  const usage = await run(["--phone", "not-a-number"]);
  assert.equal(usage.code, 2, usage.stderr);
  const misspelt = await run(["--phnoe", "+250788000001"]);
  assert.equal(misspelt.code, 2, misspelt.stderr);
  assert.match(misspelt.stderr, /^chat: unknown option --phnoe \(options: --phone, --as,/);
  const unreachable = await run(["--url", `http://127.0.0.1:${port}`]);
  assert.equal(unreachable.code, 1, unreachable.stderr);
  assert.equal(
    unreachable.stderr.trim(),
    `chat: Cannot reach the dev server at http://127.0.0.1:${port} — start it with ` +
      "`deno task dev` (same PORT and EASYMO_DATA_DIR as this command)",
  );
  // Without --url it follows the server's PORT.
  const viaPort = await run([], { PORT: String(port) });
  assert.equal(viaPort.code, 1, viaPort.stderr);
  assert.match(
    viaPort.stderr,
    new RegExp(`^chat: Cannot reach the dev server at http://127\\.0\\.0\\.1:${port} `),
  );
});

// One dev server for the file's chat tests (each plays its own numbers, so neither sees the
// other's conversation): a server start opens a database and builds the runtime. Started by the
// first test that needs it, closed by the file's last test.
let devServer: Promise<TestDevServer> | undefined;
const chatServer = () => devServer ??= startTestDevServer({ prefix: "easymo-chat-" });

Deno.test({
  name: "chat: a buyer asks nearby pharmacies, they answer, the buyer sees the answers",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await chatServer();
    const { env } = server;
    const simulators: Simulator[] = [];
    const simulate = (phone: string) => {
      const simulator = new Simulator(["--url", server.url, "--phone", phone], env);
      simulators.push(simulator);
      return simulator;
    };
    try {
      const buyer = simulate("+250788000001");
      await buyer.say("/loc kimihurura");
      let at = await buyer.waitFor(/> \/loc kimihurura\n── EasyMO · [\d:]+ · sent\n.+\n/);
      await buyer.say("paracetamol");
      // The vendors found, numbered, with the consent buttons.
      at = await buyer.waitFor(
        /paracetamol[\s\S]*\n1\. .+ \(\d+\.\d km\)\n[\s\S]*\[1\] .+ {2}\[2\] /,
        at,
      );
      await buyer.say("/tap 1");
      at = await buyer.waitFor(/> \/tap 1\n── EasyMO[^\n]*\n[^\n]*2/, at);

      // Which vendors were asked: the pharmacies.
      const asked = await server.runtime.platform.db.query<{ vendor_wa_id: string; name: string }>(
        `select m.vendor_wa_id, b.name from public.market_vendor_inquiry_messages m
         join public.businesses b on b.id = m.business_id order by m.vendor_wa_id`,
      );
      assert.deepEqual(asked.map((vendor) => vendor.vendor_wa_id), [
        "250788000004",
        "250788000009",
      ]);
      for (const vendor of asked) assert.match(buyer.output, new RegExp(vendor.name));
      const [refuser, confirmer] = asked;

      const yes = simulate(`+${confirmer.vendor_wa_id}`);
      // The seeded vendors have not written in 24 hours: they get the approved template.
      // Titled as the approved template's buttons, in the vendor's language: never raw ids.
      // Shown as the phone shows it: the approved Kinyarwanda body with the item filled in.
      const inquiry =
        /EasyMO: Mufite: paracetamol\? Subiza YEGO \+ igiciro cyangwa OYA\.\n\[1\] Yego {2}\[2\] Oya\n/;
      await yes.waitFor(inquiry);
      // Who writes: the vendor is shown with the shop it answers for.
      assert.match(
        yes.output,
        /^WhatsApp as \+250788000009 \(Sandrine Iradukunda\), vendor of Pharmacie Kacyiru \(pharmacy, Kacyiru\), on /,
      );
      await yes.say("YES 1500 2");
      const no = simulate(`+${refuser.vendor_wa_id}`);
      await no.waitFor(inquiry);
      // Tapping the template's "No" quick reply.
      await no.say("/tap 2");
      assert.equal(await no.finish(), 0, no.errors);

      // The buyer is told as soon as a vendor has it, then asks for every answer.
      at = await buyer.waitFor(
        new RegExp(`✅ ${confirmer.name} \\(\\d+\\.\\d km\\).*1,500 RWF × 2`),
        at,
      );
      await buyer.say("updates");
      // Aline's profile says Kinyarwanda, and "paracetamol" is no evidence of another language.
      at = await buyer.waitFor(/> updates\n── EasyMO[^\n]*\n.*2 kuri 2 \(byuzuye\)\n.*\n.*\n/, at);
      const answers = buyer.output.slice(buyer.output.lastIndexOf("> updates"));
      assert.match(answers, new RegExp(`✅ ${confirmer.name} — 1,500 RWF × 2 · \\d+\\.\\d km`));
      assert.match(answers, new RegExp(`❌ ${refuser.name}`));
      // A stale tap: the consent buttons are no longer the latest options.
      await buyer.say("/tap Babaze");
      at = await buyer.waitFor(/✗ no option “Babaze” on the latest message: \[1\] /, at);
      // The buyer picks the vendor by its title in the answers list: both get the other's contact.
      await buyer.say(`/tap ${confirmer.name}`);
      at = await buyer.waitFor(/wa\.me\/250788000009/, at);
      await yes.waitFor(/wa\.me\/250788000001/);
      assert.equal(await yes.finish(), 0, yes.errors);
      await buyer.say("/quit");
      assert.equal(await buyer.finish(), 0, buyer.errors);
    } finally {
      for (const simulator of simulators) await simulator.finish().catch(() => {});
    }
  },
});

Deno.test("roleOf names the shop, venue or vehicle a number answers for", () => {
  const users = [
    {
      id: "u1",
      phone: "+250788000001",
      display_name: "Aline",
      orgs: [{ org: "easymo", role: "customer" }],
    },
    {
      id: "u9",
      phone: "+250788000009",
      display_name: "Sandrine",
      orgs: [{ org: "easymo", role: "vendor" }],
    },
    {
      id: "d0",
      phone: "+250788100100",
      display_name: "Emmanuel",
      orgs: [{ org: "easymo", role: "vendor" }],
    },
  ];
  const holdings = [
    {
      kind: "shop",
      name: "Pharmacie Kacyiru",
      detail: "pharmacy, Kacyiru",
      org: "easymo",
      phone: "+250788000009",
      owner_user_id: "u9",
    },
    {
      kind: "vehicle",
      name: "RC 482 K",
      detail: "moto, TVS Apache, red",
      org: "easymo",
      phone: "+250788100100",
      owner_user_id: "d0",
    },
    {
      kind: "venue",
      name: "Question Coffee",
      detail: "restaurant, Gishushu",
      org: "easymo",
      phone: "+250788000110",
      owner_user_id: null,
    },
  ] as const;
  const seed = { users, holdings: [...holdings] };
  assert.equal(
    roleOf("250788000009", seed, "vendor"),
    "vendor of Pharmacie Kacyiru (pharmacy, Kacyiru)",
  );
  assert.equal(roleOf("250788100100", seed), "driver of RC 482 K (moto, TVS Apache, red)");
  // A business number with no user account is still that venue.
  assert.equal(roleOf("250788000110", seed), "venue Question Coffee (restaurant, Gishushu)");
  assert.equal(roleOf("250788000001", seed), "customer");
  assert.equal(roleOf("250788999999", seed), "a new customer");
  assert.equal(roleOf("250788999999", seed, "staff"), "staff");
});

Deno.test({
  name: "chat: one dev server answers both seeded numbers, each as its own tenant",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await chatServer();
    const simulators: Simulator[] = [];
    try {
      // Two new people, one writing to EasyMO's number, one to Beaver's Choice's.
      const easymo = new Simulator(["--url", server.url, "--phone", "+250788000071"], server.env);
      simulators.push(easymo);
      await easymo.say("hi");
      await easymo.waitFor(/── EasyMO · [\d:]+ · \w+\nHi! I'm EasyMO\./);
      const beaver = new Simulator(
        ["--url", server.url, "--phone", "+250788000072", "--number", "100000000000002"],
        server.env,
      );
      simulators.push(beaver);
      await beaver.say("hi");
      await beaver.waitFor(/── Beaver's Choice · [\d:]+ · \w+\nHi! I'm Beaver's Choice\./);
      assert.doesNotMatch(beaver.output, /EasyMO/);
      const rows = await server.runtime.platform.db.query<{ to_wa_id: string; slug: string }>(
        `select w.to_wa_id, o.slug from public.wa_outbox w join public.orgs o on o.id = w.org_id
         where w.to_wa_id in ('250788000071', '250788000072') order by w.to_wa_id`,
      );
      assert.deepEqual([...new Set(rows.map((row) => `${row.to_wa_id}:${row.slug}`))], [
        "250788000071:easymo",
        "250788000072:beaver-paper",
      ]);
      for (const simulator of simulators) {
        await simulator.say("/quit");
        assert.equal(await simulator.finish(), 0, simulator.errors);
      }
    } finally {
      for (const simulator of simulators) await simulator.finish().catch(() => {});
    }
  },
});

Deno.test({
  name: "the chat tests' dev server closes (the file's last test)",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await (await devServer)?.close();
  },
});

Deno.test("every template the templates page documents has a body in en, rw_RW and fr, read from both table shapes", () => {
  const bodies = approvedTemplateBodies();
  for (const name of ["vendor_inquiry", "ride_offer", "video_ready", "video_failed"]) {
    assert.deepEqual(Object.keys(bodies[name] ?? {}).sort(), ["en", "fr", "rw_RW"], name);
  }
  assert.deepEqual(
    parseTemplateBodies(
      "## `a` — x\n\n| language | body | buttons |\n| - | - | - |\n| `en` | `Hi {{1}}` | `Ok` |\n",
    ),
    { a: { en: "Hi {{1}}" } },
  );
});
