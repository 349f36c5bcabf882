import assert from "node:assert/strict";
import { caseMatterOf, tellsCase } from "./case_matter.ts";

Deno.test("a client's words name their kind of case, in en, rw and fr", () => {
  for (
    const [text, matter] of [
      ["my employer has not paid my salary for 3 months", "labour"],
      ["I was fired without notice after six years", "labour"],
      ["mon employeur ne m'a pas payé depuis trois mois", "labour"],
      ["umukoresha wanjye amaze amezi atatu atampemba umushahara", "labour"],
      ["my landlord wants to evict me next week", "tenancy"],
      ["mon bailleur veut m'expulser", "tenancy"],
      ["nyir inzu arashaka kunsohora mu nzu", "tenancy"],
      // « propriétaire » is how French most often names a landlord; of land, it is the land's.
      ["Bonjour, mon propriétaire veut me mettre dehors sans préavis", "tenancy"],
      ["le proprio de l'appartement garde ma caution", "tenancy"],
      ["nyiri inzu yanze kunsubiza amafaranga y'ingwate", "tenancy"],
      ["le propriétaire du terrain voisin a déplacé la borne", "land"],
      ["my brother sold our family land without asking", "land"],
      ["un voisin occupe une partie de mon terrain", "land"],
      ["umuturanyi yafashe igice cy'isambu yanjye", "land"],
      ["I want a divorce and custody of my children", "family"],
      ["je veux divorcer de mon mari", "family"],
      ["a friend owes me 500,000 RWF and refuses to pay", "debt"],
      ["il me doit de l'argent depuis un an", "debt"],
      ["yanze kunyishyura umwenda wanjye", "debt"],
      ["the supplier broke our contract", "contract"],
      ["I need a lawyer", null],
      ["bonjour", null],
    ] as const
  ) assert.equal(caseMatterOf(text), matter, text);
});

Deno.test("an account tells the case; asking for a lawyer does not", () => {
  assert.equal(tellsCase("my employer has not paid my salary for 3 months"), true);
  assert.equal(tellsCase("umukoresha wanjye amaze amezi atatu atampemba umushahara"), true);
  assert.equal(tellsCase("mon bailleur veut m'expulser de la maison depuis lundi"), true);
  assert.equal(tellsCase("I need a lawyer for a land case"), false);
  assert.equal(tellsCase("j'ai besoin d'un avocat"), false);
  assert.equal(tellsCase("nkeneye umunyamategeko"), false);
  // The matter named, nothing of what happened: its account is still asked.
  assert.equal(tellsCase("someone owes me money and refuses to pay, i need a lawyer"), false);
  assert.equal(tellsCase("nkeneye avoka, hari umuntu umfitiye umwenda yanze kunyishyura"), false);
});
