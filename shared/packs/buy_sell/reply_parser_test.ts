import assert from "node:assert/strict";
import { type ParsedReply, parseVendorReply, type VendorButtonTap } from "./reply_parser.ts";

type Expected = Omit<ParsedReply, "text">;
type Case = [input: string, expected: Expected];

const yes = (price?: number, quantity?: number, notes?: string): Expected => ({
  status: "yes",
  ...(price === undefined ? {} : { price, currency: "RWF" as const }),
  ...(quantity === undefined ? {} : { quantity }),
  ...(notes === undefined ? {} : { notes }),
});
const no = (notes?: string): Expected => ({ status: "no", ...(notes ? { notes } : {}) });
const other = (notes: string): Expected => ({ status: "other", notes });

function table(name: string, cases: Case[]): void {
  Deno.test(name, async (t) => {
    for (const [input, expected] of cases) {
      await t.step(JSON.stringify(input), () => {
        assert.deepEqual(parseVendorReply(input), { ...expected, text: input });
      });
    }
  });
}

table("parseVendorReply() reads yes with price and quantity when written as in the spec", [
  ["YES 1500 2", yes(1500, 2)],
  ["YEE 1500", yes(1500)],
  ["yes", yes()],
  ["Yes 2500", yes(2500)],
  ["yEs 1500 2", yes(1500, 2)],
  ["yesss 1,500 frw", yes(1500)],
  ["Yeah we have it, 3000", yes(3000)],
  ["yep 700", yes(700)],
  ["Available 12000", yes(12000)],
  ["I have it. 45000", yes(45000)],
  ["we have 3 pcs @ 2000", yes(2000, 3)],
  ["No problem 1500", yes(1500)],
  ["  yes   1500\n\n  2  ", yes(1500, 2)],
  ["YES1500", yes(1500)],
]);

table("parseVendorReply() reads no when the vendor declines", [
  ["NO", no()],
  ["OYA", no()],
  ["no", no()],
  ["NO.", no()],
  ["No!", no()],
  ["no,", no()],
  ["nooo", no()],
  ["Nope", no()],
  ["not available", no()],
  ["Sorry, out of stock", no("Sorry")],
  ["sold out", no()],
  ["We don't have it", no("We it")],
  ["no, but I have a similar one", no("but I have a similar one")],
  ["yes but not available", no("yes but")],
  ["No, 2000 is too low", no("2000 is too low")],
]);

table("parseVendorReply() reads Kinyarwanda answers when vendors write them", [
  ["yego", yes()],
  ["Yego 2000", yes(2000)],
  ["yee 1500 3", yes(1500, 3)],
  ["yeeee 800", yes(800)],
  ["Ee 5000", yes(5000)],
  ["ndabifite 5000 frw", yes(5000)],
  ["Turabifite, 3500 rwf", yes(3500)],
  ["tubifite ibice 4 igiciro 2500", yes(2500, 4)],
  ["birahari 10k", yes(10000)],
  ["yego igihumbi", yes(1000)],
  ["yego ibihumbi 2", yes(2000)],
  ["yego 2000 ariko ni used", yes(2000, undefined, "ariko ni used")],
  ["yego ariko ntabwo ari nshya", yes(undefined, undefined, "ariko ntabwo ari nshya")],
  ["Ndabifite\n\n  5000frw  \n ibice 3", yes(5000, 3)],
  ["oya", no()],
  ["Oya ntabyo", no()],
  ["ntabihari", no()],
  ["hatubifite", no()],
  ["ntabwo", no()],
  ["ntayo muvandimwe", no("muvandimwe")],
  ["Oya byashize", no()],
]);

table("parseVendorReply() reads French answers when vendors write them", [
  ["oui", yes()],
  ["Oui 2500", yes(2500)],
  ["ouais 3000 fr", yes(3000)],
  ["Oui j'ai 2000 frs", yes(2000)],
  ["J’ai 4 pièces à 1500", yes(1500, 4, "à")],
  ["nous avons 2 unités à 9000", yes(9000, 2, "à")],
  ["disponible 6.500 F", yes(6500, undefined, "F")],
  ["prix: 2.500 fr, 4 pièces", yes(2500, 4)],
  ["non", no()],
  ["Non, rupture de stock", no("de stock")],
  ["pas disponible", no()],
  ["je n'ai pas", no("je")],
  ["indisponible", no()],
]);

table("parseVendorReply() reads prices and quantities when written in vendor forms", [
  ["yes 1,500", yes(1500)],
  ["yes 1.500", yes(1500)],
  ["yes 1,500,000", yes(1500000)],
  ["yes 1.5k", yes(1500)],
  ["yes 1,5k", yes(1500)],
  ["yes 2.3k", yes(2300)],
  ["yes 15k", yes(15000)],
  ["YES 15K", yes(15000)],
  ["yes 15 k", yes(15000)],
  ["yes 2000 frw", yes(2000)],
  ["yes frw 2000", yes(2000)],
  ["yes RWF 2,000", yes(2000)],
  ["yes 2,000rwf", yes(2000)],
  ["yes Rwf2000", yes(2000)],
  ["yes 2000 amafaranga", yes(2000)],
  ["yes x3 1500", yes(1500, 3)],
  ["yes 1500 3x", yes(1500, 3)],
  ["yes 2 pcs 1500", yes(1500, 2)],
  ["yes 1500 2pcs", yes(1500, 2)],
  ["yes qty 2 1500", yes(1500, 2)],
  ["yes, quantity: 2, price: 3000", yes(3000, 2)],
  ["yes 2 pieces 1500", yes(1500, 2)],
  ["yes 1500 10 units", yes(1500, 10)],
  ["yes @1500", yes(1500)],
  ["yes @1500 x 2", yes(1500, 2)],
  ["yes 3x1500", yes(1500, 3)],
  ["yes 3 x 1500", yes(1500, 3)],
  ["yes 2000 frw 3", yes(2000, 3)],
  ["yes frw 2000 3", yes(2000, 3)],
  ["yes 5 2000frw", yes(2000, 5)],
  ["yes quantity: 2 rwf 3000", yes(3000, 2)],
  ["yes 15k frw 2", yes(15000, 2)],
  ["yes 1500,2", yes(1500, 2)],
  ["yes, 1500, 2, brand new", yes(1500, 2, "brand new")],
  ["YES 100 3", yes(100, 3)],
  ["yes 1500 2 3", yes(1500, 2, "3")],
  ["yes 1500 each", yes(1500)],
]);

table("parseVendorReply() treats a small lone number as quantity when no marker says otherwise", [
  ["yes 2", yes(undefined, 2)],
  ["yes 99", yes(undefined, 99)],
  ["yes 100", yes(100)],
  ["yes 2 1500", yes(1500, 2)],
  ["yes 50 2", yes(50, 2)],
  ["yes 50 frw", yes(50)],
]);

table("parseVendorReply() accepts weak or bare answers only when documented", [
  ["y", yes()],
  ["Y 1500", yes(1500)],
  ["why 1500", other("why 1500")],
  ["ok 1500", yes(1500)],
  ["Okay, 2000 frw", yes(2000)],
  ["sawa 3000", yes(3000)],
  ["ok", other("ok")],
  ["ok let me check", other("ok let me check")],
  ["ok 2", other("ok 2")],
  ["2000", yes(2000)],
  ["2,000rwf x3", yes(2000, 3)],
  ["15000 each", yes(15000)],
  ["2", other("2")],
  ["1500?", other("1500?")],
]);

table("parseVendorReply() reads emojis when they lead the message", [
  ["👍", yes()],
  ["👍🏽 2000", yes(2000)],
  ["✅ 1500 2", yes(1500, 2)],
  ["✔️", yes()],
  ["❌", no()],
  ["👎", no()],
  ["I'll check 👍", other("I'll check 👍")],
  ["👍 but sold out", no("but")],
]);

table("parseVendorReply() returns other when the text is not an answer", [
  ["now", other("now")],
  ["Now", other("Now")],
  ["noted", other("noted")],
  ["I know", other("I know")],
  ["nothing", other("nothing")],
  ["yesterday", other("yesterday")],
  ["yess?", other("yess?")],
  ["yes?", other("yes?")],
  ["Available?", other("Available?")],
  ["nokia 3310?", other("nokia 3310?")],
  ["Yesu ashimwe", other("Yesu ashimwe")],
  ["noon", other("noon")],
  ["non-stop service", other("non-stop service")],
  ["who is this?", other("who is this?")],
  ["  call me  ", other("call me")],
  ["Not now, I'm driving", other("Not now, I'm driving")],
]);

table("parseVendorReply() ignores phone numbers when they appear in the text", [
  ["yes 1500 call 0788123456", yes(1500, undefined, "call 0788123456")],
  ["yes call 0788123456", yes(undefined, undefined, "call 0788123456")],
  ["Yes, +250 788 123 456 1500", yes(1500, undefined, "+250 788 123 456")],
  ["yego 250788123456 2000 2", yes(2000, 2, "250788123456")],
  ["yes 0788 123 456", yes(undefined, undefined, "0788 123 456")],
  ["0788123456", other("0788123456")],
  [
    "Yes, available. 2 pcs @ 12,500 Rwf. Call 0781234567",
    yes(12500, 2, "Call 0781234567"),
  ],
]);

table("parseVendorReply() leaves absurd or unreadable amounts in the notes", [
  ["yes 0", yes(undefined, undefined, "0")],
  ["yes 999999999999 2", yes(undefined, 2, "999999999999")],
  ["yes 1500 500000 pcs", yes(1500, undefined, "500000 pcs")],
  ["yes 200000k", yes(undefined, undefined, "200000k")],
  ["yes 1.5", yes(undefined, undefined, "1.5")],
  ["yes 1.2345k", yes(undefined, undefined, "1.2345k")],
  ["yes iphone13 1500", yes(1500, undefined, "iphone13")],
  ["yes 64gb 250000", yes(250000, undefined, "64gb")],
  ["yes 5 kg 1500", yes(1500, undefined, "5 kg")],
]);

Deno.test("parseVendorReply() applies custom limits when options are given", () => {
  assert.deepEqual(parseVendorReply("yes 5000 20", { maxPrice: 4000, maxQuantity: 10 }), {
    status: "yes",
    notes: "5000 20",
    text: "yes 5000 20",
  });
});

Deno.test("parseVendorReply() reads button taps when the id or title says yes or no", async (t) => {
  const taps: Array<[VendorButtonTap, ParsedReply]> = [
    [{ buttonId: "vendor_yes" }, { status: "yes", text: "vendor_yes" }],
    [{ buttonId: "vendor_no" }, { status: "no", text: "vendor_no" }],
    [{ buttonId: "VENDOR_YES", title: "Yes" }, { status: "yes", text: "Yes" }],
    [{ buttonId: "btn-no" }, { status: "no", text: "btn-no" }],
    [{ buttonId: "YES" }, { status: "yes", text: "YES" }],
    [{ buttonId: "NO" }, { status: "no", text: "NO" }],
    [{ buttonId: "b1", title: "Yego" }, { status: "yes", text: "Yego" }],
    [{ buttonId: "b2", title: "Oui" }, { status: "yes", text: "Oui" }],
    [{ buttonId: "b3", title: "Oya" }, { status: "no", text: "Oya" }],
    [{ buttonId: "casino" }, { status: "other", text: "casino", notes: "casino" }],
    [{ buttonId: "menu", title: "Later" }, { status: "other", text: "Later", notes: "Later" }],
  ];
  for (const [tap, expected] of taps) {
    await t.step(JSON.stringify(tap), () => assert.deepEqual(parseVendorReply(tap), expected));
  }
});

Deno.test("parseVendorReply() keeps the original text when the input is empty", () => {
  assert.deepEqual(parseVendorReply(""), { status: "other", text: "" });
  assert.deepEqual(parseVendorReply(" \n "), { status: "other", text: " \n " });
});
