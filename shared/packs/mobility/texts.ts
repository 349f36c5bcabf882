/**
 * What the mobility pack says, in en, rw and fr: to riders (the flow and the
 * messages drivers' answers trigger) and to drivers (offers, check-ins).
 * Button titles stay within WhatsApp's 20 characters.
 *
 * @module
 */
import { phraseBook } from "@shared/contract/language.ts";
import { formatKigaliTime } from "@shared/capabilities/format/mod.ts";

/** Every phrase of the pack. */
export const MOBILITY_TEXTS = {
  askVehicle: {
    en: "Moto or cab? (0 = menu)",
    rw: "Moto cyangwa imodoka? (0 = menu)",
    fr: "Moto ou taxi voiture ? (0 = menu)",
  },
  moto: { en: "Moto (1 rider)", rw: "Moto (umuntu 1)", fr: "Moto (1 passager)" },
  cab: { en: "Cab (up to 4)", rw: "Imodoka (kugeza 4)", fr: "Taxi (jusqu'à 4)" },
  askPickup: {
    en:
      "Where should the driver pick you up? Share your location (📎 → Location) or type a place like Remera or Kimironko market.",
    rw:
      "Umushoferi agufate he? Ohereza aho uri (📎 → Location) cyangwa wandike ahantu nka Remera cyangwa isoko rya Kimironko.",
    fr:
      "Où le chauffeur doit-il vous prendre ? Partagez votre position (📎 → Position) ou écrivez un lieu comme Remera ou le marché de Kimironko.",
  },
  askDest: {
    en: "Where are you going? Type a place (e.g. Nyabugogo, airport) or share its location.",
    rw:
      "Urajya he? Andika ahantu (urugero: Nyabugogo, ku kibuga cy'indege) cyangwa wohereze aho ari.",
    fr: "Où allez-vous ? Écrivez un lieu (ex. Nyabugogo, aéroport) ou partagez sa position.",
  },
  unknownPlace: {
    en:
      'I do not know "{place}". Share the location instead, or type a known place (Remera, Kimironko, Nyabugogo, CBD, Kacyiru, Nyamirambo, Kicukiro, airport…).',
    rw:
      'Sinzi "{place}". Ohereza aho ari, cyangwa wandike ahantu hazwi (Remera, Kimironko, Nyabugogo, mu mujyi, Kacyiru, Nyamirambo, Kicukiro, ku kibuga cy\'indege…).',
    fr:
      "Je ne connais pas « {place} ». Partagez plutôt la position, ou écrivez un lieu connu (Remera, Kimironko, Nyabugogo, centre ville, Kacyiru, Nyamirambo, Kicukiro, aéroport…).",
  },
  samePlace: {
    en:
      'Pickup and destination are both {place}: that is no trip. Which one is wrong? (or type it, e.g. "to Nyabugogo" or "pickup is Remera")',
    rw:
      'Aho umufata n\'aho ujya byombi ni {place}: nta rugendo. Ni ikihe kitari cyo? (cyangwa wandike, urugero: "njya i Nyabugogo" cyangwa "ndi i Remera")',
    fr:
      "Le départ et la destination sont tous deux {place} : ce n'est pas un trajet. Lequel est faux ? (ou écrivez-le, ex. « vers Nyabugogo » ou « départ de Remera »)",
  },
  endPickup: { en: "Pickup", rw: "Aho umfata", fr: "Le départ" },
  endDest: { en: "Destination", rw: "Aho njya", fr: "La destination" },
  quote: {
    en:
      "{vehicle} from {from} to {to}: about {estimate} (between {min} and {max}), about {eta} min of driving. Shall I ask the nearest drivers?",
    rw:
      "{vehicle} kuva {from} ujya {to}: hafi {estimate} (hagati ya {min} na {max}), iminota {eta} y'urugendo. Mbaze abashoferi bakwegereye?",
    fr:
      "{vehicle} de {from} à {to} : environ {estimate} (entre {min} et {max}), environ {eta} min de trajet. Je demande aux chauffeurs les plus proches ?",
  },
  yesAsk: { en: "Yes, find a driver", rw: "Shaka umushoferi", fr: "Oui, un chauffeur" },
  cancel: { en: "Cancel", rw: "Reka", fr: "Annuler" },
  asked: {
    en:
      "I asked {n|# driver|# drivers} near you. The first to accept is yours: I will tell you within {minutes} min. (0 = menu)",
    rw:
      "Nabajije {n|umushoferi # ukwegereye|abashoferi # bakwegereye}. Uwa mbere wemera ni uwawe: ndakumenyesha mu minota {minutes}. (0 = menu)",
    fr:
      "J'ai demandé à {n|# chauffeur|# chauffeurs} près de vous. Le premier qui accepte est le vôtre : je vous le dis d'ici {minutes} min. (0 = menu)",
  },
  waiting: {
    en: "Still waiting for a driver to accept. I will write as soon as one does. (0 = menu)",
    rw: "Turacyategereje ko umushoferi yemera. Ndakwandikira akimara kwemera. (0 = menu)",
    fr: "J'attends encore qu'un chauffeur accepte. Je vous écris dès que c'est fait. (0 = menu)",
  },
  waitingFare: {
    en:
      "The trip is about {amount}, paid to the driver once one accepts. Still waiting for a driver: I will write as soon as one does. (0 = menu)",
    rw:
      "Urugendo ni nka {amount}, wishyura umushoferi namara kwemera. Turacyategereje ko umushoferi yemera: ndakwandikira akimara kwemera. (0 = menu)",
    fr:
      "La course coûte environ {amount}, payés au chauffeur dès qu'il accepte. J'attends encore qu'un chauffeur accepte : je vous écris dès que c'est fait. (0 = menu)",
  },
  noDrivers: {
    en: "No {vehicle} driver is free near you right now. What would you like to do?",
    rw: "Nta mushoferi wa {vehicle} uboneka hafi yawe ubu. Urashaka iki?",
    fr:
      "Aucun chauffeur {vehicle} n'est libre près de vous pour l'instant. Que voulez-vous faire ?",
  },
  nobodyAccepted: {
    en: "No driver accepted your ride in time. What would you like to do?",
    rw: "Nta mushoferi wemeye urugendo rwawe ku gihe. Urashaka iki?",
    fr: "Aucun chauffeur n'a accepté votre course à temps. Que voulez-vous faire ?",
  },
  retry: { en: "Try again", rw: "Ongera ugerageze", fr: "Réessayer" },
  wider: { en: "Look further", rw: "Shakisha kure", fr: "Chercher plus loin" },
  takeCab: { en: "Take a cab", rw: "Fata imodoka", fr: "Prendre un taxi" },
  matched: {
    en:
      "🎉 {driver} accepted your ride: {vehicle}, plate {plate}. Call or WhatsApp {phone} (https://wa.me/{wa}). Pay the driver {amount} with MoMo?",
    rw:
      "🎉 {driver} yemeye urugendo rwawe: {vehicle}, purake {plate}. Hamagara cyangwa wandikire {phone} (https://wa.me/{wa}). Wishyura umushoferi {amount} na MoMo?",
    fr:
      "🎉 {driver} a accepté votre course : {vehicle}, plaque {plate}. Appelez ou écrivez sur WhatsApp au {phone} (https://wa.me/{wa}). Payer {amount} au chauffeur par MoMo ?",
  },
  // How a ride is paid, asked at the quote, before any driver is asked.
  payHow: {
    en: "You pay the driver once a driver accepts: with MoMo here in the chat, or in cash.",
    rw: "Wishyura umushoferi namara kwemera urugendo: na MoMo hano mu kiganiro, cyangwa mu ntoki.",
    fr:
      "Vous payez le chauffeur dès qu'un chauffeur accepte : par MoMo ici dans la discussion, ou en espèces.",
  },
  payMomo: { en: "Pay with MoMo", rw: "Ishyura na MoMo", fr: "Payer par MoMo" },
  payCash: { en: "Pay cash", rw: "Nishyura mu ntoki", fr: "Payer en espèces" },
  payLink: {
    en:
      "Pay {amount} to {driver}: tap {link} or dial {code}. Reference {ref}. I will confirm when the payment arrives.",
    rw:
      "Ishyura {amount} kuri {driver}: kanda {link} cyangwa ukande {code}. Indangamuntu y'ubwishyu {ref}. Ndakumenyesha amafaranga nageze.",
    fr:
      "Payez {amount} à {driver} : touchez {link} ou composez {code}. Référence {ref}. Je confirme dès que le paiement arrive.",
  },
  payPending: {
    en: "Your payment {ref} is not confirmed yet. I will tell you as soon as it is. (0 = menu)",
    rw: "Ubwishyu bwawe {ref} ntiburemezwa. Ndakubwira bukimara kwemezwa. (0 = menu)",
    fr:
      "Votre paiement {ref} n'est pas encore confirmé. Je vous le dis dès qu'il l'est. (0 = menu)",
  },
  paid: {
    en: "✅ Payment received for your ride with {driver}. Have a good trip!",
    rw: "✅ Ubwishyu bw'urugendo rwawe na {driver} bwakiriwe. Urugendo ruhire!",
    fr: "✅ Paiement reçu pour votre course avec {driver}. Bon trajet !",
  },
  payFailed: {
    en: "The MoMo payment did not go through ({reason}). Try again, or pay the driver in cash.",
    rw: "Ubwishyu bwa MoMo ntibwakunze ({reason}). Ongera ugerageze, cyangwa wishyure mu ntoki.",
    fr: "Le paiement MoMo n'a pas abouti ({reason}). Réessayez, ou payez le chauffeur en espèces.",
  },
  payUnavailable: {
    en: "I cannot take a MoMo payment right now ({reason}). Please pay the driver directly.",
    rw: "Sinshobora kwakira ubwishyu bwa MoMo ubu ({reason}). Wishyure umushoferi ubwawe.",
    fr:
      "Je ne peux pas prendre de paiement MoMo pour l'instant ({reason}). Payez le chauffeur directement.",
  },
  cash: {
    en: "OK: pay {driver} in cash. Have a good trip!",
    rw: "Ni byiza: wishyure {driver} mu ntoki. Urugendo ruhire!",
    fr: "D'accord : payez {driver} en espèces. Bon trajet !",
  },
  cancelled: {
    en: "OK, no ride. Type 0 for the menu.",
    rw: "Ni byiza, nta rugendo. Andika 0 ubone menu.",
    fr: "D'accord, pas de course. Tapez 0 pour le menu.",
  },
  failed: {
    en: "Sorry, that did not work: {msg}",
    rw: "Mutwihanganire, ntibyakunze: {msg}",
    fr: "Désolé, cela n'a pas marché : {msg}",
  },
  // To drivers ---------------------------------------------------------------------
  offer: {
    en:
      "🛵 Ride request: pickup near {pickup} (about {distance} from you) to {dest}. Price {price}. The first driver to accept gets it; it expires in {minutes} min.",
    rw:
      "🛵 Urugendo: gufata umugenzi hafi ya {pickup} (nka {distance} uvuye aho uri) ajya {dest}. Igiciro {price}. Umushoferi wa mbere wemera ni we uhabwa urugendo; rurangira mu minota {minutes}.",
    fr:
      "🛵 Demande de course : prise en charge près de {pickup} (à environ {distance} de vous) vers {dest}. Prix {price}. Le premier chauffeur qui accepte l'obtient ; expire dans {minutes} min.",
  },
  accept: { en: "Accept", rw: "Emera", fr: "Accepter" },
  decline: { en: "Decline", rw: "Anga", fr: "Refuser" },
  won: {
    en:
      "✅ The ride is yours. Rider: {rider}, {phone} (https://wa.me/{wa}). Pickup: {pickup} ({map}). Destination: {dest}. Price {price}.",
    rw:
      "✅ Urugendo ni urwawe. Umugenzi: {rider}, {phone} (https://wa.me/{wa}). Aho umufata: {pickup} ({map}). Ajya: {dest}. Igiciro {price}.",
    fr:
      "✅ La course est à vous. Passager : {rider}, {phone} (https://wa.me/{wa}). Prise en charge : {pickup} ({map}). Destination : {dest}. Prix {price}.",
  },
  lost: {
    en: "This ride was taken by another driver. Stay available for the next one.",
    rw: "Uru rugendo rwafashwe n'undi mushoferi. Komeza uboneke ku rundi.",
    fr: "Cette course a été prise par un autre chauffeur. Restez disponible pour la suivante.",
  },
  offerExpired: {
    en: "This ride request has expired.",
    rw: "Ubu busabe bw'urugendo bwarangiye.",
    fr: "Cette demande de course a expiré.",
  },
  rideCancelled: {
    en: "The rider cancelled this ride: nothing to do. Stay available for the next one.",
    rw: "Umugenzi yahagaritse uru rugendo: nta cyo ukora. Komeza uboneke ku rundi.",
    fr: "Le passager a annulé cette course : rien à faire. Restez disponible pour la suivante.",
  },
  rideHeld: {
    en:
      "⏸ The ride near {pickup} to {dest} is on hold: the rider needs a moment. Nobody can accept it for now; your offer is kept, and we will tell you when it is open again.",
    rw:
      "⏸ Urugendo rwo hafi ya {pickup} rujya {dest} ruhagaze gato: umugenzi akeneye akanya. Ubu nta wushobora kurwemera; ubusabe bwawe burabitswe, tuzakubwira nirwongera gufungurwa.",
    fr:
      "⏸ La course près de {pickup} vers {dest} est en attente : le passager a besoin d'un moment. Personne ne peut l'accepter pour l'instant ; votre offre est gardée, nous vous dirons quand elle sera rouverte.",
  },
  rideOnHold: {
    en:
      "⏸ This ride is on hold for now: nobody can accept it yet. Your offer is kept; we will tell you when it is open again.",
    rw:
      "⏸ Uru rugendo ruhagaze gato: nta wushobora kurwemera ubu. Ubusabe bwawe burabitswe; tuzakubwira nirwongera gufungurwa.",
    fr:
      "⏸ Cette course est en attente : personne ne peut encore l'accepter. Votre offre est gardée ; nous vous dirons quand elle sera rouverte.",
  },
  rideReopened: {
    en:
      "▶️ The ride near {pickup} (about {distance} from you) to {dest} is open again. Price {price}. The first driver to accept gets it; your offer expires in {minutes} min.",
    rw:
      "▶️ Urugendo rwo hafi ya {pickup} (nka {distance} uvuye aho uri) rujya {dest} rwongeye gufungurwa. Igiciro {price}. Umushoferi wa mbere wemera ni we uhabwa urugendo; ubusabe bwawe burangira mu minota {minutes}.",
    fr:
      "▶️ La course près de {pickup} (à environ {distance} de vous) vers {dest} est rouverte. Prix {price}. Le premier chauffeur qui accepte l'obtient ; votre offre expire dans {minutes} min.",
  },
  // To riders leaving the flow while a ride waits --------------------------------------
  openRide: {
    en: "your {vehicle} request from {from} to {to}, still waiting for a driver",
    rw: "ubusabe bwawe bwa {vehicle} kuva {from} ujya {to}, butegereje umushoferi",
    fr: "votre demande de {vehicle} de {from} à {to}, qui attend encore un chauffeur",
  },
  // "Move it" with a ride request open: it has no time to move.
  noMove: {
    en:
      "Your {vehicle} request from {from} to {to} went out to drivers as soon as you asked, so it has no time to move. Cancel it and ask again when you want to go, or keep waiting?",
    rw:
      "Ubusabe bwawe bwa {vehicle} kuva {from} ujya {to} bwoherejwe ku bashoferi ako kanya, ntibushobora kwimurirwa ikindi gihe. Ubuhagarike ugasaba ubundi igihe ushakiye kugenda, cyangwa ukomeze utegereze?",
    fr:
      "Votre demande de {vehicle} de {from} à {to} est partie aux chauffeurs dès que vous l'avez faite : elle n'a pas d'heure à déplacer. L'annuler et redemander quand vous voudrez partir, ou continuer d'attendre ?",
  },
  cancelRequest: { en: "Cancel request", rw: "Hagarika ubusabe", fr: "Annuler la demande" },
  keepWaiting: { en: "Keep waiting", rw: "Komeza utegereze", fr: "Continuer d'attendre" },
  rideCancelledRider: {
    en: "Your ride request is cancelled; the drivers who were asked have been told.",
    rw: "Ubusabe bwawe bw'urugendo bwahagaritswe; abashoferi babajijwe babimenyeshejwe.",
    fr: "Votre demande de course est annulée ; les chauffeurs sollicités ont été prévenus.",
  },
  declined: {
    en: "OK, you declined this ride.",
    rw: "Ni byiza, wanze uru rugendo.",
    fr: "D'accord, vous avez refusé cette course.",
  },
  available: {
    en:
      "✅ You are available for rides until {until} (Kigali time). Share your location again when you move; reply BUSY to stop.",
    rw:
      "✅ Uboneka ku ngendo kugeza {until} (isaha y'i Kigali). Ongera wohereze aho uri nimuhindura aho muri; andika BUSY kugira ngo uhagarike.",
    fr:
      "✅ Vous êtes disponible pour des courses jusqu'à {until} (heure de Kigali). Repartagez votre position si vous bougez ; répondez OCCUPE pour arrêter.",
  },
  busy: {
    en: "You are now busy: no ride requests until you reply AVAILABLE.",
    rw: "Ubu ntuboneka: nta busabe bw'urugendo kugeza wanditse NDAHARI.",
    fr: "Vous êtes occupé : plus de demandes de course jusqu'à ce que vous répondiez DISPONIBLE.",
  },
  needLocation: {
    en: "Share your location (📎 → Location) so riders near you can be sent to you.",
    rw: "Ohereza aho uri (📎 → Location) kugira ngo abagenzi bakwegereye bakoherezwe.",
    fr: "Partagez votre position (📎 → Position) pour recevoir les passagers proches de vous.",
  },
} as const;

/** Looks up a phrase in a language, with `{name}` values filled in. */
export const say = phraseBook(MOBILITY_TEXTS);

/** "850 m" or "1.2 km", rounded to 100 m: a driver learns no more. */
export function coarseDistance(metres: number): string {
  const rounded = Math.max(100, Math.round(metres / 100) * 100);
  return rounded < 1000 ? `${rounded} m` : `${(rounded / 1000).toFixed(1)} km`;
}

/** HH:MM on the Kigali clock (UTC+2). */
export function kigaliClock(at: Date): string {
  return formatKigaliTime(at);
}
