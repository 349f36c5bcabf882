/**
 * What the Insurance agent says, in en, rw and fr: the offline flow (photo,
 * confirmation, cover, quotes, payment) and the certificate message sent once
 * the premium is paid. Button and row titles stay within WhatsApp's limits
 * (20 and 24 characters).
 *
 * @module
 */
import { type Language, phraseBook } from "@shared/contract/language.ts";

/** Every phrase of the pack. */
export const INSURANCE_TEXTS = {
  askPhoto: {
    en:
      "Let's insure your vehicle. Send a clear photo of its registration card (carte jaune): flat, in good light, the whole card in the picture. (0 = menu)",
    rw:
      "Reka dushinganishe ikinyabiziga cyawe. Ohereza ifoto igaragara neza y'ikarita yacyo (carte jaune): iri hasi, ahari urumuri, ikarita yose igaragara. (0 = menu)",
    fr:
      "Assurons votre véhicule. Envoyez une photo nette de sa carte grise (carte jaune) : à plat, bien éclairée, la carte entière dans l'image. (0 = menu)",
  },
  notAPhoto: {
    en:
      "I need a photo of the registration card (carte jaune) to read its details. Send it as a photo, not a file. (0 = menu)",
    rw:
      "Nkeneye ifoto y'ikarita y'ikinyabiziga (carte jaune) kugira ngo nsome ibiyiriho. Yohereze nk'ifoto. (0 = menu)",
    fr:
      "J'ai besoin d'une photo de la carte grise (carte jaune) pour lire ses informations. Envoyez-la comme photo. (0 = menu)",
  },
  reading: {
    en: "Reading your document…",
    rw: "Ndimo gusoma icyangombwa cyawe…",
    fr: "Je lis votre document…",
  },
  blurred: {
    en:
      "I could not read this photo: it is too blurred or dark. Please take it again, flat on a table, in daylight, holding the phone steady. (0 = menu)",
    rw:
      "Sinashoboye gusoma iyi foto: ntigaragara neza cyangwa irijimye. Ongera uyifate, ikarita iri ku meza, ku manywa, telefoni idanyeganyega. (0 = menu)",
    fr:
      "Je n'ai pas pu lire cette photo : elle est floue ou sombre. Reprenez-la, la carte à plat sur une table, à la lumière du jour, sans bouger. (0 = menu)",
  },
  photoNotReceived: {
    en:
      "Your photo did not come through: the file is empty or damaged. Please send the photo of your carte jaune again. (0 = menu)",
    rw:
      "Ifoto yawe ntiyatugezeho neza: dosiye irimo ubusa cyangwa yangiritse. Ongera wohereze ifoto ya carte jaune yawe. (0 = menu)",
    fr:
      "Votre photo n'est pas bien arrivée : le fichier est vide ou endommagé. Renvoyez la photo de votre carte jaune. (0 = menu)",
  },
  notADocument: {
    en:
      "This picture is not a vehicle registration card. Please send a photo of your carte jaune (the card with the plate, make and owner). (0 = menu)",
    rw:
      "Iyi foto si ikarita y'ikinyabiziga. Ohereza ifoto ya carte jaune yawe (ikarita iriho pulaki, ikirango na nyirayo). (0 = menu)",
    fr:
      "Cette image n'est pas une carte grise. Envoyez une photo de votre carte jaune (la carte avec la plaque, la marque et le propriétaire). (0 = menu)",
  },
  wrongDocument: {
    en:
      "This looks like another document. For motor insurance I need the vehicle's registration card (carte jaune). (0 = menu)",
    rw:
      "Iki gisa n'ikindi cyangombwa. Ku bwishingizi bw'ikinyabiziga nkeneye ikarita yacyo (carte jaune). (0 = menu)",
    fr:
      "Cela ressemble à un autre document. Pour l'assurance auto il me faut la carte grise du véhicule (carte jaune). (0 = menu)",
  },
  unreadableTwice: {
    en:
      "I still cannot read the card, so I have passed your photo to our team: a person will check it and write to you here.",
    rw:
      "Sinashoboye gusoma ikarita, noherereje ifoto yawe abakozi bacu: umuntu arayisuzuma akwandikire hano.",
    fr:
      "Je n'arrive toujours pas à lire la carte, j'ai donc transmis votre photo à notre équipe : une personne va la vérifier et vous écrire ici.",
  },
  fields: {
    en:
      'I read:\nPlate: {plate}\nMake: {make}\nModel: {model}\nYear: {year}\nOwner: {owner}\nUse: {usage}\n\nIs this right? To correct, type e.g. "year 2016" or "plate RAB 123 C".',
    rw:
      'Nasomye:\nPulaki: {plate}\nIkirango: {make}\nUbwoko: {model}\nUmwaka: {year}\nNyirayo: {owner}\nIcyo gikoreshwa: {usage}\n\nNi byo? Gukosora, andika nk\'"umwaka 2016" cyangwa "pulaki RAB 123 C".',
    fr:
      "J'ai lu :\nPlaque : {plate}\nMarque : {make}\nModèle : {model}\nAnnée : {year}\nPropriétaire : {owner}\nUsage : {usage}\n\nEst-ce exact ? Pour corriger, écrivez par ex. « année 2016 » ou « plaque RAB 123 C ».",
  },
  doubtful: {
    en: "Please check: {fields}.",
    rw: "Reba neza: {fields}.",
    fr: "Vérifiez : {fields}.",
  },
  unknown: { en: "(not read)", rw: "(ntibisomwe)", fr: "(non lu)" },
  confirmYes: { en: "Yes, correct", rw: "Yego, ni byo", fr: "Oui, c'est exact" },
  fixHow: {
    en:
      'Type the field and its right value, e.g. "year 2016", "plate RAB 123 C", "make Toyota", "model RAV4" or "owner Aline Uwimana".',
    rw:
      'Andika icyo ukosora n\'agaciro nyako, urugero "umwaka 2016", "pulaki RAB 123 C", "ikirango Toyota", "ubwoko RAV4" cyangwa "nyirayo Aline Uwimana".',
    fr:
      "Écrivez le champ et la bonne valeur, par ex. « année 2016 », « plaque RAB 123 C », « marque Toyota », « modèle RAV4 » ou « propriétaire Aline Uwimana ».",
  },
  fix: { en: "Correct something", rw: "Gukosora", fr: "Corriger" },
  badPlate: {
    en: 'A Rwandan plate looks like "RAB 123 C". Please type it again.',
    rw: 'Pulaki yo mu Rwanda imeze nka "RAB 123 C". Ongera uyandike.',
    fr: "Une plaque rwandaise ressemble à « RAB 123 C ». Réécrivez-la.",
  },
  badYear: {
    en: "The year must be a year like 2016 (from 1950 to {max}).",
    rw: "Umwaka ugomba kuba nka 2016 (kuva 1950 kugeza {max}).",
    fr: "L'année doit ressembler à 2016 (de 1950 à {max}).",
  },
  missing: {
    en: 'I still need the {fields}. Type it like "year 2016".',
    rw: 'Ndacyakeneye {fields}. Byandike nka "umwaka 2016".',
    fr: "Il me manque encore : {fields}. Écrivez-le comme « année 2016 ».",
  },
  askUsage: {
    en: "How is the vehicle used?",
    rw: "Ikinyabiziga gikoreshwa gute?",
    fr: "Comment le véhicule est-il utilisé ?",
  },
  private: { en: "Private", rw: "Ku giti cyanjye", fr: "Privé" },
  usagePrivate: { en: "private", rw: "ku giti cye", fr: "privé" },
  usageCommercial: { en: "commercial", rw: "ubucuruzi", fr: "commercial" },
  usageTaxi: { en: "taxi", rw: "tagisi", fr: "taxi" },
  usageTaxiMoto: { en: "taxi-moto", rw: "moto itwara abagenzi", fr: "moto-taxi" },
  usageGovernment: { en: "government", rw: "leta", fr: "administration" },
  commercial: { en: "Commercial (taxi…)", rw: "Ubucuruzi (taxi…)", fr: "Commercial (taxi…)" },
  commercialToStaff: {
    en:
      "Commercial vehicles (taxi, moto taxi, hire) are priced by our team. I have sent them your vehicle's details: a person will write to you here with quotes.",
    rw:
      "Ibinyabiziga by'ubucuruzi (taxi, moto itwara abagenzi, ibikodeshwa) bibarirwa n'abakozi bacu. Nabohereje amakuru y'ikinyabiziga cyawe: umuntu arakwandikira hano akubwire ibiciro.",
    fr:
      "Les véhicules commerciaux (taxi, moto-taxi, location) sont tarifés par notre équipe. Je leur ai transmis les détails de votre véhicule : une personne vous écrira ici avec des devis.",
  },
  askCover: {
    en:
      "Which cover?\n1. Third party: what you must have, pays for damage you cause to others.\n2. Comprehensive: also your own vehicle (needs its value).",
    rw:
      "Ubuhe bwishingizi?\n1. Ubw'abandi (third party): ubw'itegeko, bwishyura ibyo wangirije abandi.\n2. Bwuzuye: n'ikinyabiziga cyawe (bisaba agaciro kacyo).",
    fr:
      "Quelle garantie ?\n1. Tiers : obligatoire, paie les dommages causés aux autres.\n2. Tous risques : aussi votre véhicule (il faut sa valeur).",
  },
  thirdParty: { en: "Third party", rw: "Ubw'abandi", fr: "Tiers" },
  comprehensive: { en: "Comprehensive", rw: "Bwuzuye", fr: "Tous risques" },
  askValue: {
    en: "What is the vehicle worth today, in RWF? (e.g. 8000000)",
    rw: "Ikinyabiziga gifite agaciro kangana iki ubu, mu RWF? (urugero 8000000)",
    fr: "Combien vaut le véhicule aujourd'hui, en RWF ? (ex. 8000000)",
  },
  badValue: {
    en: "Type the value as a number of francs, e.g. 8000000.",
    rw: "Andika agaciro mu mibare y'amafaranga, urugero 8000000.",
    fr: "Écrivez la valeur en francs, par ex. 8000000.",
  },
  askPeriod: {
    en: "For how long?",
    rw: "Igihe kingana iki?",
    fr: "Pour combien de temps ?",
  },
  months3: { en: "3 months", rw: "Amezi 3", fr: "3 mois" },
  months6: { en: "6 months", rw: "Amezi 6", fr: "6 mois" },
  months12: { en: "1 year", rw: "Umwaka 1", fr: "1 an" },
  quotes: {
    en: "{cover}, {period}, {vehicle}:\n\n{lines}\n\nPick an insurer (type its number). (0 = menu)",
    rw:
      "{cover}, {period}, {vehicle}:\n\n{lines}\n\nHitamo umwishingizi (andika nimero ye). (0 = menu)",
    fr:
      "{cover}, {period}, {vehicle} :\n\n{lines}\n\nChoisissez un assureur (tapez son numéro). (0 = menu)",
  },
  quoteLine: {
    en: "{n}. {insurer}: {premium}\n   base {base} + {fees} + VAT {tax}",
    rw: "{n}. {insurer}: {premium}\n   ishingiro {base} + {fees} + TVA {tax}",
    fr: "{n}. {insurer} : {premium}\n   base {base} + {fees} + TVA {tax}",
  },
  declined: {
    en: "Not offered by {insurers}: {reasons}.",
    rw: "Ntibitangwa na {insurers}: {reasons}.",
    fr: "Non proposé par {insurers} : {reasons}.",
  },
  tooOld: {
    en:
      "No insurer's tariff covers this vehicle as it is ({reason}). I have sent your details to our team: a person will write to you here about the cover they can find.",
    rw:
      "Nta mwishingizi ufite igiciro cy'iki kinyabiziga uko kimeze ({reason}). Nohereje amakuru yawe abakozi bacu: umuntu arakwandikira hano.",
    fr:
      "Aucun tarif d'assureur ne couvre ce véhicule tel quel ({reason}). J'ai transmis vos détails à notre équipe : une personne vous écrira ici.",
  },
  priceFailed: {
    en: "I could not get quotes: {msg} (0 = menu)",
    rw: "Sinashoboye kubona ibiciro: {msg} (0 = menu)",
    fr: "Je n'ai pas pu obtenir de devis : {msg} (0 = menu)",
  },
  pickQuote: {
    en: "Type the number of the insurer you want (1 to {n}).",
    rw: "Andika nimero y'umwishingizi ushaka (1 kugeza {n}).",
    fr: "Tapez le numéro de l'assureur choisi (1 à {n}).",
  },
  payLink: {
    en:
      "{insurer}, {premium}. Pay with MoMo to {payee}: dial {code} (or tap {link}). Reference {ref}.\nYour certificate comes here as soon as the payment is confirmed.",
    rw:
      "{insurer}, {premium}. Ishyura na MoMo kuri {payee}: kanda {code} (cyangwa ukande {link}). Nimero {ref}.\nIcyemezo cyawe kiraza hano ubwishyu nibumara kwemezwa.",
    fr:
      "{insurer}, {premium}. Payez par MoMo à {payee} : composez {code} (ou touchez {link}). Référence {ref}.\nVotre attestation arrive ici dès que le paiement est confirmé.",
  },
  payCancelled: {
    en: "OK, no payment. Type a number to pick another insurer, or 0 for the menu.",
    rw: "Ntacyo, nta kwishyura. Andika nimero uhitemo undi mwishingizi, cyangwa 0 ujye kuri menu.",
    fr: "D'accord, pas de paiement. Tapez un numéro pour un autre assureur, ou 0 pour le menu.",
  },
  payFailed: {
    en: "The payment could not be started: {msg} (0 = menu)",
    rw: "Kwishyura ntibyatangiye: {msg} (0 = menu)",
    fr: "Le paiement n'a pas pu démarrer : {msg} (0 = menu)",
  },
  noPayee: {
    en:
      "Our team takes insurance payments in person for now: I have sent them your choice and a person will write to you here to finish.",
    rw:
      "Ubu kwishyura ubwishingizi bikorwa n'abakozi bacu: nabohereje amahitamo yawe, umuntu arakwandikira hano ngo murangize.",
    fr:
      "Notre équipe encaisse les assurances pour l'instant : je lui ai transmis votre choix, une personne vous écrira ici pour finaliser.",
  },
  waitingPayment: {
    en:
      "Waiting for your MoMo payment {ref} of {premium} to {payee}: dial {code}. The certificate comes here once it is confirmed. (0 = menu)",
    rw:
      "Turategereje ubwishyu bwa MoMo {ref} bwa {premium} kuri {payee}: kanda {code}. Icyemezo kiraza hano nibumara kwemezwa. (0 = menu)",
    fr:
      "En attente de votre paiement MoMo {ref} de {premium} à {payee} : composez {code}. L'attestation arrive ici une fois confirmé. (0 = menu)",
  },
  chargeClosed: {
    en: "Your payment {ref} is {status}: nothing more to pay on it. ",
    rw: "Ubwishyu bwawe {ref} {status}: nta kindi wishyura kuri bwo. ",
    fr: "Votre paiement {ref} est {status} : plus rien à payer dessus. ",
  },
  statusSettled: { en: "settled", rw: "bwarishyuwe", fr: "réglé" },
  statusExpired: { en: "expired", rw: "bwarangiye igihe", fr: "expiré" },
  statusFailed: { en: "cancelled", rw: "bwahagaritswe", fr: "annulé" },
  staffFailed: {
    en:
      'I could not reach our team right now ({msg}). Please type 0 and choose "Talk to a person".',
    rw: 'Sinashoboye kugera ku bakozi bacu ubu ({msg}). Andika 0 uhitemo "Vugana n\'umuntu".',
    fr:
      "Je n'ai pas pu joindre notre équipe ({msg}). Tapez 0 et choisissez « Parler à quelqu'un ».",
  },
  certificateName: {
    en: "insurance certificate",
    rw: "icyemezo cy'ubwishingizi",
    fr: "attestation d'assurance",
  },
  certificateCaption: {
    en: "Your motor insurance certificate, {insurer}, {plate}, valid {from} to {to}.",
    rw: "Icyemezo cy'ubwishingizi bw'ikinyabiziga, {insurer}, {plate}, kuva {from} kugeza {to}.",
    fr: "Votre attestation d'assurance auto, {insurer}, {plate}, valable du {from} au {to}.",
  },
  certificateLink: {
    en:
      "Payment received. Your insurance certificate {number} ({plate}, {insurer}) is ready: {url}\nThis link works until {expires}; save the PDF on your phone and keep it in the vehicle.",
    rw:
      "Ubwishyu bwakiriwe. Icyemezo cy'ubwishingizi {number} ({plate}, {insurer}) kiriteguye: {url}\nIyi link ikora kugeza {expires}; bika PDF muri telefoni kandi uyigendane mu kinyabiziga.",
    fr:
      "Paiement reçu. Votre attestation d'assurance {number} ({plate}, {insurer}) est prête : {url}\nCe lien fonctionne jusqu'au {expires} ; enregistrez le PDF sur votre téléphone et gardez-le dans le véhicule.",
  },
  certificateByHand: {
    en:
      "Payment {ref} received. Our team is issuing your insurance certificate by hand and will send it here shortly.",
    rw:
      "Ubwishyu {ref} bwakiriwe. Abakozi bacu barimo gutegura icyemezo cyawe cy'ubwishingizi, barakohereza hano vuba.",
    fr:
      "Paiement {ref} reçu. Notre équipe établit votre attestation d'assurance et vous l'envoie ici sous peu.",
  },
  person: { en: "Talk to a person", rw: "Vugana n'umuntu", fr: "Parler à quelqu'un" },
  // Leaving the flow with the premium's charge still waiting (the kernel's "cancel or keep?").
  openPremium: {
    en: "an insurance premium of {premium} to {payee} waiting for your MoMo payment ({ref})",
    rw: "ubwishyu bw'ubwishingizi bwa {premium} kuri {payee} butegereje MoMo yawe ({ref})",
    fr: "une prime d'assurance de {premium} à {payee} en attente de votre paiement MoMo ({ref})",
  },
  premiumCancelled: {
    en:
      "Payment {ref} is cancelled: its code no longer pays anything and no certificate will be issued. If money already left your account, our team will refund it.",
    rw:
      "Ubwishyu {ref} bwahagaritswe: kode yabwo ntikishyura ikintu kandi nta cyemezo kizatangwa. Niba amafaranga yaravuye kuri konti yawe, abakozi bacu bazayagusubiza.",
    fr:
      "Le paiement {ref} est annulé : son code ne paie plus rien et aucune attestation ne sera émise. Si de l'argent a déjà quitté votre compte, notre équipe vous le remboursera.",
  },
  premiumAlreadyEnded: {
    en: "Payment {ref} had already ended ({status}): nothing to cancel.",
    rw: "Ubwishyu {ref} bwari bwararangiye ({status}): nta cyo guhagarika.",
    fr: "Le paiement {ref} était déjà terminé ({status}) : rien à annuler.",
  },
  premiumNotCancelled: {
    en: "Sorry, I could not cancel payment {ref}: {msg}",
    rw: "Mutwihanganire, sinashoboye guhagarika ubwishyu {ref}: {msg}",
    fr: "Désolé, je n'ai pas pu annuler le paiement {ref} : {msg}",
  },
} satisfies Record<string, Record<Language, string>>;

/** Says a phrase in a language, with `{values}` filled in. */
export const say = phraseBook(INSURANCE_TEXTS);
