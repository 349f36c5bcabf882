import assert from "node:assert/strict";
import { wantsToListHome } from "./landlord_wish.ts";

Deno.test("a landlord's wish to list a home is told from a renter's search, in en, rw and fr", () => {
  for (
    const text of [
      "Bonjour, je veux mettre ma maison en location",
      "je voudrais louer mon appartement de 2 chambres à Kicukiro",
      "j'ai un studio à louer à Remera",
      "je cherche un locataire pour ma villa",
      "I want to rent out my house",
      "I have a 3 bedroom house for rent in Gisozi",
      "looking for a tenant for my flat",
      "my apartment is free, I want to rent it",
      "ndashaka gukodesha inzu yanjye",
      "mfite inzu ikodeshwa i Kanombe",
      "ndashaka umukodesha w'inzu",
      "I am a landlord",
    ]
  ) assert.equal(wantsToListHome(text), true, text);
  for (
    const text of [
      "ndashaka inzu yo gukodesha i Kimironko ifite ibyumba 2",
      "je cherche une maison à louer à Kimironko",
      "I need a house to rent near my work",
      "do you have a flat for rent in Remera?",
      "avez-vous un appartement à louer pour ma famille ?",
      "nkeneye icyumba cyo gukodesha",
      "2 bedrooms under 200000",
    ]
  ) assert.equal(wantsToListHome(text), false, text);
});
