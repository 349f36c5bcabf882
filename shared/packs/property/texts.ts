/**
 * What the property pack says, in en, rw and fr: to renters (the flow) and
 * to landlords and agents (notices of viewings). Button and row titles stay
 * within WhatsApp's limits.
 *
 * @module
 */
import { type Language, phraseBook } from "@shared/contract/language.ts";

/** Every phrase of the pack. */
export const PROPERTY_TEXTS = {
  askWhat: {
    en:
      "Which area, how many bedrooms and what monthly budget? E.g. “Kimironko, 2 bedrooms, under 200000”. (0 = menu)",
    rw:
      "Ni hehe, ibyumba bingahe, kandi ubukode bwa buri kwezi bungana iki? Urugero: “Kimironko, ibyumba 2, munsi ya 200000”. (0 = menu)",
    fr:
      "Quel quartier, combien de chambres et quel budget mensuel ? Ex. « Kimironko, 2 chambres, moins de 200000 ». (0 = menu)",
  },
  noneFound: {
    en: "No home matches that yet. Try another area or a higher budget. (0 = menu)",
    rw: "Nta nzu ihuye n'ibyo ushaka ubu. Gerageza ahandi cyangwa amafaranga menshi. (0 = menu)",
    fr:
      "Aucun logement ne correspond pour l'instant. Essayez un autre quartier ou un budget plus élevé. (0 = menu)",
  },
  person: { en: "Talk to a person", rw: "Vugana n'umuntu", fr: "Parler à quelqu'un" },
  results: {
    en: "Homes for you (the exact address comes with a booked viewing):",
    rw: "Inzu zikubereye (aderesi nyayo uyihabwa umaze kwemeza gusura):",
    fr: "Logements pour vous (l'adresse exacte vient avec une visite réservée) :",
  },
  pickListing: {
    en: "Choose a home to visit.",
    rw: "Hitamo inzu ushaka gusura.",
    fr: "Choisissez un logement à visiter.",
  },
  listButton: { en: "Homes", rw: "Inzu", fr: "Logements" },
  listSection: { en: "Rentals", rw: "Izikodeshwa", fr: "Locations" },
  perMonth: { en: "{price}/month", rw: "{price} ku kwezi", fr: "{price}/mois" },
  // A listing's name, made from its facts in the reader's language (the stored title is the
  // landlord's own words, usually English).
  listingName: {
    en: "home with {n|# bedroom|# bedrooms} in {area}",
    rw: "inzu {n|y'icyumba #|y'ibyumba #} i {area}",
    fr: "logement de {n|# chambre|# chambres} à {area}",
  },
  studioName: {
    en: "studio in {area}",
    rw: "inzu y'icyumba kimwe i {area}",
    fr: "studio à {area}",
  },
  bedrooms: {
    en: "{n|# bedroom|# bedrooms}",
    rw: "{n|icyumba #|ibyumba #}",
    fr: "{n|# chambre|# chambres}",
  },
  photos: { en: "Photos", rw: "Amafoto", fr: "Photos" },
  noPhotoLinks: {
    en: "{n|# photo|# photos} (links unavailable right now)",
    rw: "{n|Ifoto # (ntiboneka ubu)|Amafoto # (ntaboneka ubu)}",
    fr:
      "{n|# photo (lien indisponible pour l'instant)|# photos (liens indisponibles pour l'instant)}",
  },
  pickSlot: {
    en: "{title}: when would you like to visit? Choose a time (Kigali time).",
    rw: "{title}: ushaka gusura ryari? Hitamo isaha (isaha y'i Kigali).",
    fr: "{title} : quand souhaitez-vous visiter ? Choisissez un horaire (heure de Kigali).",
  },
  slotButton: { en: "Times", rw: "Amasaha", fr: "Horaires" },
  slotSection: { en: "Free times", rw: "Amasaha ari ubusa", fr: "Horaires libres" },
  noSlots: {
    en: "The landlord has no free viewing time in the next two weeks. Choose another home.",
    rw: "Nyir'inzu nta saha yo gusura afite mu byumweru bibiri biri imbere. Hitamo indi nzu.",
    fr:
      "Le propriétaire n'a pas de créneau libre dans les deux semaines. Choisissez un autre logement.",
  },
  confirmViewing: {
    en: "Book a viewing of {title} on {when} for {name} ({phone})?",
    rw: "Wemeza gusura {title}, {when}, kuri {name} ({phone})?",
    fr: "Réserver une visite de {title} le {when} pour {name} ({phone}) ?",
  },
  yes: { en: "Yes, book it", rw: "Yego, emeza", fr: "Oui, réserver" },
  no: { en: "No", rw: "Oya", fr: "Non" },
  booked: {
    en:
      "Booked: {title}, {when}.\nAddress: {address}\nMeet: {contact}\nCancel or move it here any time.",
    rw:
      "Byemejwe: {title}, {when}.\nAderesi: {address}\nUhure na: {contact}\nWabihagarika cyangwa ukabyimura hano igihe cyose.",
    fr:
      "Réservé : {title}, {when}.\nAdresse : {address}\nContact : {contact}\nVous pouvez l'annuler ou la déplacer ici à tout moment.",
  },
  confirmationPdf: {
    en: "Your viewing confirmation: {title}",
    rw: "Icyemezo cyawe cyo gusura: {title}",
    fr: "Votre confirmation de visite : {title}",
  },
  slotTaken: {
    en: "Someone just booked that time. Choose another:",
    rw: "Undi muntu amaze gufata iyo saha. Hitamo indi:",
    fr: "Quelqu'un vient de réserver cet horaire. Choisissez-en un autre :",
  },
  gone: {
    en: "That home is no longer available. Search again? (0 = menu)",
    rw: "Iyo nzu ntikiboneka. Wongere ushakishe? (0 = menu)",
    fr: "Ce logement n'est plus disponible. Chercher à nouveau ? (0 = menu)",
  },
  notBooked: {
    en: "Not booked. Choose another time or home, or 0 for the menu.",
    rw: "Ntibyemejwe. Hitamo indi saha cyangwa indi nzu, cyangwa 0 ujye kuri menu.",
    fr: "Pas réservé. Choisissez un autre horaire ou logement, ou 0 pour le menu.",
  },
  cancelViewing: { en: "Cancel viewing", rw: "Hagarika gusura", fr: "Annuler la visite" },
  // "Move it" with one viewing open: which one, and when to.
  moveWhen: {
    en:
      "Your viewing of {title} on {when}: to when should I move it? Choose a new time (Kigali time).",
    rw: "Gusura {title} ({when}): nkwimurire ryari? Hitamo isaha nshya (isaha y'i Kigali).",
    fr:
      "Votre visite de {title} le {when} : à quand la déplacer ? Choisissez un nouvel horaire (heure de Kigali).",
  },
  moveViewing: { en: "Move viewing", rw: "Imura gusura", fr: "Déplacer la visite" },
  cancelled: {
    en: "Your viewing of {title} on {when} is cancelled. (0 = menu)",
    rw: "Gusura {title} ({when}) byahagaritswe. (0 = menu)",
    fr: "Votre visite de {title} le {when} est annulée. (0 = menu)",
  },
  // Leaving the flow with a viewing booked (the kernel's "cancel or keep?"): the landlord holds
  // the slot for the renter.
  openViewing: {
    en: "a viewing of {title} booked for {when}, which the landlord is expecting",
    rw: "gusura {title} byemejwe ku ya {when}, nyir'inzu abitegereje",
    fr: "une visite de {title} réservée pour le {when}, que le propriétaire attend",
  },
  leaveCancelled: {
    en: "Your viewing of {title} on {when} is cancelled; the landlord is being told.",
    rw: "Gusura {title} ({when}) byahagaritswe; nyir'inzu arabimenyeshwa.",
    fr: "Votre visite de {title} le {when} est annulée ; le propriétaire en est prévenu.",
  },
  leaveAlreadyCancelled: {
    en: "That viewing was already cancelled: nothing more to do.",
    rw: "Uko gusura kwari kwarahagaritswe: nta kindi gukora.",
    fr: "Cette visite était déjà annulée : rien de plus à faire.",
  },
  leaveNotCancelled: {
    en: "Sorry, I could not cancel the viewing: {msg}",
    rw: "Mutwihanganire, sinashoboye guhagarika gusura: {msg}",
    fr: "Désolé, je n'ai pas pu annuler la visite : {msg}",
  },
  moved: {
    en: "Moved: your viewing of {title} is now {when}.",
    rw: "Byimuwe: gusura {title} ubu ni {when}.",
    fr: "Déplacée : votre visite de {title} est maintenant le {when}.",
  },
  hostBooked: {
    en: "New viewing of {title}: {when}, {name} ({phone}).",
    rw: "Gusura gushya kwa {title}: {when}, {name} ({phone}).",
    fr: "Nouvelle visite de {title} : {when}, {name} ({phone}).",
  },
  hostCancelled: {
    en: "The viewing of {title} on {when} ({name}) is cancelled.",
    rw: "Gusura {title} ({when}, {name}) byahagaritswe.",
    fr: "La visite de {title} le {when} ({name}) est annulée.",
  },
  renterCancelled: {
    en: "Your viewing of {title} on {when} was cancelled by the landlord. Search again any time.",
    rw: "Gusura {title} ({when}) byahagaritswe na nyir'inzu. Ushobora kongera gushakisha.",
    fr:
      "Votre visite de {title} le {when} a été annulée par le propriétaire. Vous pouvez chercher à nouveau.",
  },
  hostMoved: {
    en: "The viewing of {title} ({name}) moved from {from} to {when}.",
    rw: "Gusura {title} ({name}) byimuwe kuva {from} bijya {when}.",
    fr: "La visite de {title} ({name}) est déplacée du {from} au {when}.",
  },
  renterMoved: {
    en: "The landlord moved your viewing of {title} from {from} to {when}.",
    rw: "Nyir'inzu yimuye gusura {title} kuva {from} bijya {when}.",
    fr: "Le propriétaire a déplacé votre visite de {title} du {from} au {when}.",
  },
  hostYouCancelled: {
    en: "Cancelled: the viewing of {title} on {when}. The renter is being told.",
    rw: "Byahagaritswe: gusura {title} ({when}). Ukodesha arabimenyeshwa.",
    fr: "Annulée : la visite de {title} le {when}. Le locataire est prévenu.",
  },
  hostPickTime: {
    en: "{title}: to which time should the viewing move? (Kigali time)",
    rw: "{title}: gusura kwimurirwe ryari? (isaha y'i Kigali)",
    fr: "{title} : à quel horaire déplacer la visite ? (heure de Kigali)",
  },
  hostYouMoved: {
    en: "Moved: the viewing of {title} is now {when}. The renter is being told.",
    rw: "Byimuwe: gusura {title} ubu ni {when}. Ukodesha arabimenyeshwa.",
    fr: "Déplacée : la visite de {title} est maintenant le {when}. Le locataire est prévenu.",
  },
  hostAlreadyCancelled: {
    en: "The viewing of {title} on {when} was already cancelled.",
    rw: "Gusura {title} ({when}) byari byarahagaritswe.",
    fr: "La visite de {title} le {when} était déjà annulée.",
  },
  remindRenter: {
    en: "Reminder: your viewing of {title} is {when}.\nAddress: {address}\nMeet: {contact}",
    rw: "Kwibutsa: gusura {title} ni {when}.\nAderesi: {address}\nUhure na: {contact}",
    fr: "Rappel : votre visite de {title} est le {when}.\nAdresse : {address}\nContact : {contact}",
  },
  remindHost: {
    en: "Reminder: viewing of {title} {when} with {name} ({phone}).",
    rw: "Kwibutsa: gusura {title}, {when}, na {name} ({phone}).",
    fr: "Rappel : visite de {title} le {when} avec {name} ({phone}).",
  },
  listMyHome: { en: "List my home", rw: "Tanga inzu yanjye", fr: "Louer mon logement" },
  askPhotos: {
    en: "Let's list your home. Send photos of it (up to 10), then tap Done. (0 = menu)",
    rw:
      "Reka dushyire inzu yawe ku rutonde. Ohereza amafoto yayo (kugeza 10), hanyuma ukande Ndangije. (0 = menu)",
    fr:
      "Proposons votre logement. Envoyez-en des photos (10 au plus), puis touchez Terminé. (0 = menu)",
  },
  photoReceived: {
    en: "Photo {n} received. Send more, or tap Done.",
    rw: "Ifoto ya {n} yakiriwe. Ohereza izindi, cyangwa ukande Ndangije.",
    fr: "Photo {n} reçue. Envoyez-en d'autres, ou touchez Terminé.",
  },
  done: { en: "Done", rw: "Ndangije", fr: "Terminé" },
  askPrice: {
    en: "What is the monthly rent, in RWF? e.g. 180000",
    rw: "Ubukode bwa buri kwezi ni angahe (RWF)? Urugero: 180000",
    fr: "Quel est le loyer mensuel, en RWF ? ex. 180000",
  },
  askRooms: {
    en: "How many bedrooms?",
    rw: "Ifite ibyumba bingahe byo kuraramo?",
    fr: "Combien de chambres ?",
  },
  askArea: {
    en: "Which sector and cell? e.g. “Kimironko, Bibare”",
    rw: "Ni uwuhe murenge n'akagari? Urugero: “Kimironko, Bibare”",
    fr: "Quel secteur et quelle cellule ? ex. « Kimironko, Bibare »",
  },
  askAddress: {
    en: "The exact address (street and house number). Only renters who book a viewing will see it.",
    rw: "Aderesi nyayo (umuhanda n'inomero y'inzu). Izabonwa gusa n'abemeje gusura.",
    fr:
      "L'adresse exacte (rue et numéro). Seuls les locataires qui réservent une visite la verront.",
  },
  confirmListing: {
    en:
      "List your home: {price}/month, {n|# bedroom|# bedrooms}, {area}, {photos|# photo|# photos}? Our team approves it before renters see it.",
    rw:
      "Ushyire inzu yawe ku rutonde: {price} ku kwezi, {n|icyumba #|ibyumba #}, {area}, {photos|ifoto #|amafoto #}? Abakozi bacu barabanza kubyemeza mbere y'uko abakodesha bayibona.",
    fr:
      "Proposer votre logement : {price}/mois, {n|# chambre|# chambres}, {area}, {photos|# photo|# photos} ? Notre équipe l'approuve avant que les locataires le voient.",
  },
  listYes: { en: "Yes, list it", rw: "Yego, yishyireho", fr: "Oui, le proposer" },
  listed: {
    en:
      "Thank you: {title} is waiting for our team's approval. You will be told when it is published.",
    rw:
      "Murakoze: {title} itegereje kwemezwa n'abakozi bacu. Uzamenyeshwa niyamara gushyirwa ahagaragara.",
    fr:
      "Merci : {title} attend l'approbation de notre équipe. Vous serez prévenu dès sa publication.",
  },
  notListed: {
    en: "Not listed. Type 0 for the menu.",
    rw: "Ntibyashyizwe ku rutonde. Andika 0 usubire kuri menu.",
    fr: "Non proposé. Tapez 0 pour le menu.",
  },
  landlordPublished: {
    en: 'Your listing "{title}" is published: renters can now find it and book viewings.',
    rw:
      'Inzu yawe "{title}" yashyizwe ahagaragara: abakodesha bashobora kuyibona no gusaba gusura.',
    fr:
      "Votre annonce « {title} » est publiée : les locataires peuvent la trouver et réserver des visites.",
  },
  landlordRejected: {
    en: 'Your listing "{title}" was not approved: {reason}',
    rw: 'Inzu yawe "{title}" ntiyemejwe: {reason}',
    fr: "Votre annonce « {title} » n'a pas été approuvée : {reason}",
  },
} as const;

/** Says a phrase of the pack in a language, with values filled in. */
export const phrase = phraseBook(PROPERTY_TEXTS);

/**
 * A listing's name in a language, made from its facts (bedrooms, area), never
 * from the landlord's stored title, which stays in the words they wrote it in.
 */
export function listingName(
  listing: { bedrooms: number; area: string },
  language: Language,
): string {
  const values = { n: listing.bedrooms, area: listing.area };
  return phrase(listing.bedrooms === 0 ? "studioName" : "listingName", language, values);
}
