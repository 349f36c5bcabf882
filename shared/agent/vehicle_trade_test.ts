import assert from "node:assert/strict";
import { nameGazetteer, normalizeText } from "./text_features.ts";
import { tradesVehicle } from "./vehicle_trade.ts";

const MAKES = nameGazetteer(["Toyota", "Vitz", "Honda", "CR-V", "Hyundai", "Tucson", "Kia"]);
const trades = (text: string) => tradesVehicle(normalizeText(text), MAKES);

Deno.test("buying or selling a vehicle by its noun, make or model is a trade, in en/rw/fr", () => {
  for (
    const text of [
      "looking to purchase a second hand pickup",
      "anybody selling a Honda CR-V?",
      "qlq1 vend une Hyundai Tucson svp",
      "on achète ta camionnette si elle roule",
      "turagura ikamyo ikiri nzima",
      "ndashaka kugurisha Toyota Vitz yanjye",
      "mugurisha ipikipiki?",
    ]
  ) assert.ok(trades(text), text);
});

Deno.test("a past purchase, a trade that is another thing's purpose, a vehicle far from the verb or no vehicle is no trade", () => {
  for (
    const text of [
      "j'ai acheté une Kia hier, il me faut l'assurance",
      "buy fuel and oil for my old car",
      "ndashaka kugura amata",
      "je vends des brochettes",
      "a car to Kimironko please",
      "who can draft the papers for selling a Toyota",
      "un acte de vente de voiture, c'est où ?",
    ]
  ) assert.ok(!trades(text), text);
});
