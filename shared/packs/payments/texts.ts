/**
 * What the payments pack says, in en, rw and fr: to the payer (the link,
 * settled, failed, expired), to the payee (paid), to a vendor confirming
 * `PAID <ref>`, and the Payments agent's offline answers.
 *
 * @module
 */
import { type Language, phraseBook } from "@shared/contract/language.ts";

/** Every phrase of the pack. `{amount}` is already formatted (`formatRwf`, the one money format). */
export const PAYMENTS_TEXTS = {
  link: {
    en:
      "To pay {amount} to {payee}, dial {code}\nor tap: {link}\nReference: {ref}. The code works until {until} (Kigali time). I will tell you when the payment arrives.",
    rw:
      "Kwishyura {amount} kuri {payee}, kanda {code}\ncyangwa ukande hano: {link}\nIndango: {ref}. Iyi kode irakora kugeza {until} (isaha y'i Kigali). Nzakubwira ubwishyu nibumara kugera.",
    fr:
      "Pour payer {amount} à {payee}, composez {code}\nou touchez : {link}\nRéférence : {ref}. Le code est valable jusqu'à {until} (heure de Kigali). Je vous préviens dès que le paiement arrive.",
  },
  settledPayer: {
    en: "✅ Payment received: {amount}{what}. Reference {ref}.",
    rw: "✅ Twakiriye ubwishyu: {amount}{what}. Indango {ref}.",
    fr: "✅ Paiement reçu : {amount}{what}. Référence {ref}.",
  },
  forOrder: {
    en: " for {order} at {payee}",
    rw: " bya {order} kwa {payee}",
    fr: " pour {order} chez {payee}",
  },
  forRide: {
    en: " for your ride with {payee}",
    rw: " by'urugendo rwawe na {payee}",
    fr: " pour votre course avec {payee}",
  },
  toPayee: { en: " to {payee}", rw: " kuri {payee}", fr: " à {payee}" },
  settledPayee: {
    en: "💰 Paid: {amount} from {payer}{what}. Reference {ref}.",
    rw: "💰 Byishyuwe: {amount} na {payer}{what}. Indango {ref}.",
    fr: "💰 Payé : {amount} par {payer}{what}. Référence {ref}.",
  },
  payeeOrder: { en: " for {order}", rw: " bya {order}", fr: " pour {order}" },
  failedPayer: {
    en:
      "❌ Your payment of {amount} ({ref}) did not go through: {why} Tap Pay again for a new code, or talk to a person.",
    rw:
      "❌ Ubwishyu bwawe bwa {amount} ({ref}) ntibwakunze: {why} Kanda Ongera wishyure ubone kode nshya, cyangwa uvugane n'umuntu.",
    fr:
      "❌ Votre paiement de {amount} ({ref}) n'a pas abouti : {why} Touchez Repayer pour un nouveau code, ou parlez à quelqu'un.",
  },
  whyFailed: {
    en: "Mobile Money refused it and nothing was taken.",
    rw: "Mobile Money yabyanze kandi nta mafaranga yavuyeho.",
    fr: "Mobile Money l'a refusé et rien n'a été débité.",
  },
  whyFunds: {
    en: "there was not enough balance on the MoMo account.",
    rw: "nta mafaranga ahagije yari kuri konti ya MoMo.",
    fr: "le solde du compte MoMo était insuffisant.",
  },
  whyExpired: {
    en: "the code expired before a payment arrived.",
    rw: "kode yarangiye nta bwishyu buraza.",
    fr: "le code a expiré avant qu'un paiement n'arrive.",
  },
  whyCancelled: {
    en: "it was cancelled at your request.",
    rw: "wabisabye ko bihagarikwa.",
    fr: "il a été annulé à votre demande.",
  },
  // Money that arrived for a charge already ended (cancelled, expired, failed): never kept silently.
  lateMoneyPayer: {
    en:
      "We received {amount} for {ref}, but that payment had already ended: {why} A person from our team will refund it or write to you.",
    rw:
      "Twakiriye {amount} bya {ref}, ariko ubwo bwishyu bwari bwararangiye: {why} Umukozi wacu azagusubiza amafaranga cyangwa akwandikire.",
    fr:
      "Nous avons reçu {amount} pour {ref}, mais ce paiement était déjà terminé : {why} Une personne de notre équipe va vous rembourser ou vous écrire.",
  },
  mismatchPayer: {
    en:
      "We received a payment for {ref} but not of the amount asked ({amount}). A person from our team is checking it and will write to you.",
    rw:
      "Twakiriye ubwishyu bwa {ref} ariko si amafaranga yasabwe ({amount}). Umukozi wacu arabigenzura aragusubiza.",
    fr:
      "Nous avons reçu un paiement pour {ref} mais pas du montant demandé ({amount}). Une personne de notre équipe vérifie et vous écrira.",
  },
  payAgain: { en: "Pay again", rw: "Ongera wishyure", fr: "Repayer" },
  person: { en: "Talk to a person", rw: "Vugana n'umuntu", fr: "Parler à quelqu'un" },
  vendorConfirmed: {
    en: "Thank you. {ref} is marked paid: {amount} from {payer}{what}. The customer has been told.",
    rw:
      "Murakoze. {ref} yanditswe ko yishyuwe: {amount} na {payer}{what}. Umukiriya yamenyeshejwe.",
    fr: "Merci. {ref} est marqué payé : {amount} par {payer}{what}. Le client a été prévenu.",
  },
  vendorAlready: {
    en: "{ref} is already {status}: nothing changed.",
    rw: "{ref} isanzwe ari {status}: nta cyahindutse.",
    fr: "{ref} est déjà {status} : rien n'a changé.",
  },
  // Payments agent, offline.
  ask: {
    en:
      'I can send you a Mobile Money code to pay (e.g. "pay 5000 to 0788123456"), check a payment that did not go through, or tell you where an order stands (e.g. "status of A-1042"). Type menu to go back.',
    rw:
      'Nshobora kukoherereza kode ya Mobile Money yo kwishyura (urugero "ishyura 5000 kuri 0788123456"), kugenzura ubwishyu butakunze, cyangwa kukubwira aho commande igeze (urugero "commande A-1042"). Andika menu usubire inyuma.',
    fr:
      "Je peux vous envoyer un code Mobile Money pour payer (ex. « payer 5000 au 0788123456 »), vérifier un paiement qui n'est pas passé, ou dire où en est une commande (ex. « statut de A-1042 »). Tapez menu pour revenir.",
  },
  confirmPay: {
    en: "Pay {amount} to {payee} from your MoMo number {phone}?",
    rw: "Kwishyura {amount} kuri {payee} ukoresheje nimero yawe ya MoMo {phone}?",
    fr: "Payer {amount} à {payee} depuis votre numéro MoMo {phone} ?",
  },
  // An order's charge read back: the venue paid, beside the order's number.
  payeeVenue: {
    en: "{venue} (order {no})",
    rw: "{venue} (itumiza {no})",
    fr: "{venue} (commande {no})",
  },
  // A ride's charge read back: the trip in the reader's words ("shoferi wawe (urugendo Kimironko - Nyabugogo)").
  payeeRide: {
    en: "your driver (ride {trip})",
    rw: "shoferi wawe (urugendo {trip})",
    fr: "votre chauffeur (course {trip})",
  },
  noPayments: {
    en:
      "I find no payment from you in the last 7 days. If money left your account, send me the MoMo SMS or talk to a person.",
    rw:
      "Nta bwishyu bwawe mbona mu minsi 7 ishize. Niba amafaranga yavuye kuri konti yawe, nyoherereza SMS ya MoMo cyangwa uvugane n'umuntu.",
    fr:
      "Je ne trouve aucun paiement de votre part ces 7 derniers jours. Si de l'argent a quitté votre compte, envoyez-moi le SMS MoMo ou parlez à quelqu'un.",
  },
  recent: {
    en: "Your latest payment: {amount}{what}, reference {ref}: {state}",
    rw: "Ubwishyu bwawe buheruka: {amount}{what}, indango {ref}: {state}",
    fr: "Votre dernier paiement : {amount}{what}, référence {ref} : {state}",
  },
  statePending: {
    en:
      "we are still waiting for Mobile Money (the code works until {until}). If you paid, it usually arrives within minutes.",
    rw:
      "turacyategereje Mobile Money (kode irakora kugeza {until}). Niba warishyuye, ubusanzwe bigera mu minota mike.",
    fr:
      "nous attendons encore Mobile Money (le code est valable jusqu'à {until}). Si vous avez payé, cela arrive en général en quelques minutes.",
  },
  stateSettled: {
    en: "received on {at}. Nothing more to do.",
    rw: "bwakiriwe {at}. Nta kindi gisabwa.",
    fr: "reçu le {at}. Rien d'autre à faire.",
  },
  stateFailed: {
    en: "it did not go through: {why}",
    rw: "ntibwakunze: {why}",
    fr: "il n'est pas passé : {why}",
  },
  orderStatus: {
    en: "Order {order} at {venue}: {status}. Payment: {payment}.",
    rw: "Commande {order} kwa {venue}: {status}. Ubwishyu: {payment}.",
    fr: "Commande {order} chez {venue} : {status}. Paiement : {payment}.",
  },
  orderNotFound: {
    en: "I find no order {order} of yours. Check the number (it looks like A-1042).",
    rw: "Nta commande {order} yawe mbona. Reba nimero (imeze nka A-1042).",
    fr: "Je ne trouve pas de commande {order} à votre nom. Vérifiez le numéro (du type A-1042).",
  },
  badPhone: {
    en: "{phone} is not a Rwandan Mobile Money number. Write it like 0788123456.",
    rw: "{phone} si nimero ya Mobile Money yo mu Rwanda. Yandike nka 0788123456.",
    fr: "{phone} n'est pas un numéro Mobile Money rwandais. Écrivez-le comme 0788123456.",
  },
  noMomo: {
    en:
      'Your WhatsApp number is not a Rwandan MoMo number: tell me the number you pay from, e.g. "pay 5000 to 0788123456 from 0781234567".',
    rw:
      'Nimero yawe ya WhatsApp si iya MoMo yo mu Rwanda: mbwira nimero wishyuriraho, urugero "ishyura 5000 kuri 0788123456 uvuye kuri 0781234567".',
    fr:
      "Votre numéro WhatsApp n'est pas un numéro MoMo rwandais : indiquez le numéro qui paie, ex. « payer 5000 au 0788123456 depuis 0781234567 ».",
  },
  // Leaving the Payments agent with a charge it made still waiting (the kernel's "cancel or keep?").
  openTransfer: {
    en: "a payment of {amount} to {payee} waiting for your MoMo ({ref})",
    rw: "ubwishyu bwa {amount} kuri {payee} butegereje MoMo yawe ({ref})",
    fr: "un paiement de {amount} à {payee} en attente de votre MoMo ({ref})",
  },
  transferCancelled: {
    en:
      "Payment {ref} is cancelled: its code no longer pays anything. If money already left your account, our team will refund it.",
    rw:
      "Ubwishyu {ref} bwahagaritswe: kode yabwo ntikishyura ikintu. Niba amafaranga yaravuye kuri konti yawe, abakozi bacu bazayagusubiza.",
    fr:
      "Le paiement {ref} est annulé : son code ne paie plus rien. Si de l'argent a déjà quitté votre compte, notre équipe vous le remboursera.",
  },
  transferEnded: {
    en: "Payment {ref} had already ended: nothing to cancel.",
    rw: "Ubwishyu {ref} bwari bwararangiye: nta cyo guhagarika.",
    fr: "Le paiement {ref} était déjà terminé : rien à annuler.",
  },
  transferNotCancelled: {
    en: "Sorry, I could not cancel payment {ref}: {msg}",
    rw: "Mutwihanganire, sinashoboye guhagarika ubwishyu {ref}: {msg}",
    fr: "Désolé, je n'ai pas pu annuler le paiement {ref} : {msg}",
  },
  chargeFailed: {
    en: "I could not create the payment: {msg}",
    rw: "Sinashoboye gutegura ubwishyu: {msg}",
    fr: "Je n'ai pas pu créer le paiement : {msg}",
  },
} as const;

/** Says a phrase of {@link PAYMENTS_TEXTS}. */
export const say = phraseBook(PAYMENTS_TEXTS);

/** A Rwandan number as people read it (`0788 123 456`). */
export function localPhone(e164: string): string {
  const local = `0${e164.replace(/^\+250/, "")}`;
  return /^07[0-9]{8}$/.test(local)
    ? `${local.slice(0, 4)} ${local.slice(4, 7)} ${local.slice(7)}`
    : e164;
}

/** Why a payment failed, in words. */
export function whyFailed(reason: string | null, language: Language): string {
  return reason === "INSUFFICIENT_FUNDS"
    ? say("whyFunds", language)
    : reason === "EXPIRED"
    ? say("whyExpired", language)
    : reason === "CANCELLED"
    ? say("whyCancelled", language)
    : say("whyFailed", language);
}
