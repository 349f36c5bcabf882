/**
 * What the Legal Intake agent says, in en, rw and fr: the intake (category,
 * summary, name, documents), the filed case with its reference and summary
 * PDF, the consultation fee, and the refusal to give legal advice with the
 * offer of a person. Button and row titles stay within WhatsApp's limits (20
 * and 24 characters).
 *
 * @module
 */
import { type Language, phraseBook } from "@shared/contract/language.ts";

/** Every phrase of the pack. */
export const LEGAL_TEXTS = {
  askCategory: {
    en:
      "I take down legal cases for our lawyers; I do not give legal advice myself. What is your case about? (0 = menu)",
    rw:
      "Nandika ibibazo by'amategeko nkabishyikiriza abanyamategeko bacu; jye ubwanjye sintanga inama mu by'amategeko. Ikibazo cyawe kijyanye n'iki? (0 = menu)",
    fr:
      "J'enregistre les affaires juridiques pour nos avocats ; je ne donne pas moi-même de conseil juridique. De quoi s'agit-il ? (0 = menu)",
  },
  categories: { en: "Case types", rw: "Ubwoko bw'ikibazo", fr: "Types d'affaire" },
  choose: { en: "Choose", rw: "Hitamo", fr: "Choisir" },
  land: { en: "Land / property", rw: "Ubutaka n'imitungo", fr: "Foncier / biens" },
  family: { en: "Family / inheritance", rw: "Umuryango n'izungura", fr: "Famille / succession" },
  labour: { en: "Work / employment", rw: "Akazi", fr: "Travail / emploi" },
  tenancy: { en: "Renting / landlord", rw: "Ubukode", fr: "Location / bail" },
  contract: { en: "Contract", rw: "Amasezerano", fr: "Contrat" },
  debt: { en: "Money owed", rw: "Umwenda", fr: "Dette" },
  business: { en: "Business / company", rw: "Ubucuruzi", fr: "Entreprise" },
  criminal: { en: "Criminal matter", rw: "Icyaha", fr: "Affaire pénale" },
  notary: { en: "Notary / documents", rw: "Noteri", fr: "Notaire / actes" },
  other: { en: "Something else", rw: "Ikindi", fr: "Autre chose" },
  askSummary: {
    en:
      "{category}: tell me in a few sentences what happened, who is involved and since when. A lawyer will read it. (0 = menu)",
    rw:
      "{category}: mbwira mu nteruro nke ibyabaye, abo bireba n'igihe byatangiriye. Umunyamategeko azabisoma. (0 = menu)",
    fr:
      "{category} : expliquez en quelques phrases ce qui s'est passé, qui est concerné et depuis quand. Un avocat le lira. (0 = menu)",
  },
  shortSummary: {
    en: "Please say a little more (at least a full sentence) so the lawyer understands your case.",
    rw: "Ongeraho gato (nibura interuro yuzuye) kugira ngo umunyamategeko yumve ikibazo cyawe.",
    fr:
      "Dites-en un peu plus (au moins une phrase complète) pour que l'avocat comprenne l'affaire.",
  },
  askName: {
    en: "What is your full name, as the lawyer should write it?",
    rw: "Amazina yawe yose ni ayahe, uko umunyamategeko agomba kuyandika?",
    fr: "Quel est votre nom complet, tel que l'avocat doit l'écrire ?",
  },
  badName: {
    en: "Please write your full name (first name and surname).",
    rw: "Andika amazina yawe yose (izina n'irindi).",
    fr: "Écrivez votre nom complet (prénom et nom).",
  },
  addedToAccount: {
    en: "I added that to what the lawyer will read.",
    rw: "Nabyongeye ku byo umunyamategeko azasoma.",
    fr: "Je l'ai ajouté à ce que l'avocat lira.",
  },
  addedToAccountDocuments: {
    en: "I added that to what the lawyer will read. Send documents as photos or PDFs, or tap Done.",
    rw:
      "Nabyongeye ku byo umunyamategeko azasoma. Ohereza inyandiko nk'amafoto cyangwa PDF, cyangwa ukande Birarangiye.",
    fr:
      "Je l'ai ajouté à ce que l'avocat lira. Envoyez les documents en photo ou en PDF, ou touchez Terminé.",
  },
  documentsOnly: {
    en: "Send documents as photos or PDFs, or tap Done when you have none (more).",
    rw: "Ohereza inyandiko nk'amafoto cyangwa PDF, cyangwa ukande Birarangiye niba nta zindi.",
    fr: "Envoyez les documents en photo ou en PDF, ou touchez Terminé s'il n'y en a pas (plus).",
  },
  askDocuments: {
    en:
      "Do you have documents for the lawyer (a contract, a letter, a title)? Send them now as photos or PDFs, then tap Done. No documents? Tap Done.",
    rw:
      "Ufite inyandiko z'umunyamategeko (amasezerano, ibaruwa, icyangombwa)? Zohereze ubu nk'amafoto cyangwa PDF, hanyuma ukande Birarangiye. Nta nyandiko? Kanda Birarangiye.",
    fr:
      "Avez-vous des documents pour l'avocat (contrat, lettre, titre) ? Envoyez-les maintenant en photo ou en PDF, puis touchez Terminé. Pas de document ? Touchez Terminé.",
  },
  gotDocument: {
    en: "Received ({count}). Send another, or tap Done.",
    rw: "Byakiriwe ({count}). Ohereza indi, cyangwa ukande Birarangiye.",
    fr: "Reçu ({count}). Envoyez-en un autre, ou touchez Terminé.",
  },
  documentKept: {
    en: "I kept your document ({count}): it will go with your case.",
    rw: "Nabitse inyandiko yawe ({count}): izajyana n'ikibazo cyawe.",
    fr: "J'ai gardé votre document ({count}) : il sera joint à votre affaire.",
  },
  notADocument: {
    en: "I can take photos and PDF files only. Send the document as a photo or a PDF, or tap Done.",
    rw:
      "Nakira amafoto na PDF gusa. Ohereza inyandiko nk'ifoto cyangwa PDF, cyangwa ukande Birarangiye.",
    fr:
      "Je n'accepte que des photos et des PDF. Envoyez le document en photo ou en PDF, ou touchez Terminé.",
  },
  tooManyDocuments: {
    en: "That is the most I can attach ({count}). Tap Done to file your case.",
    rw: "Ntabwo narenza izi ({count}). Kanda Birarangiye kugira ngo ikibazo cyandikwe.",
    fr: "Je ne peux pas en joindre plus ({count}). Touchez Terminé pour enregistrer l'affaire.",
  },
  done: { en: "Done", rw: "Birarangiye", fr: "Terminé" },
  filed: {
    en:
      "Your case is filed. Reference: {ref}. A lawyer from our team will contact you on {phone}. Keep the reference for any question about it.",
    rw:
      "Ikibazo cyawe cyanditswe. Nimero yacyo: {ref}. Umunyamategeko wacu azaguhamagara kuri {phone}. Bika iyi nimero ku kibazo cyose kijyanye na cyo.",
    fr:
      "Votre affaire est enregistrée. Référence : {ref}. Un avocat de notre équipe vous contactera au {phone}. Gardez la référence pour toute question.",
  },
  pdfLink: {
    en: "Your intake summary (PDF): {url}",
    rw: "Incamake y'ikibazo cyawe (PDF): {url}",
    fr: "Le résumé de votre dossier (PDF) : {url}",
  },
  pdfFailed: {
    en: "The summary PDF could not be made just now; our team will send it to you.",
    rw: "Incamake ya PDF ntibashije gukorwa ubu; abakozi bacu bazayikoherereza.",
    fr: "Le résumé PDF n'a pas pu être créé pour l'instant ; notre équipe vous l'enverra.",
  },
  fee: {
    en: "The first consultation costs {amount}, paid by MoMo to {payee}. Tap Pay to get the code.",
    rw:
      "Inama ya mbere yishyurwa {amount}, byishyurwa kuri MoMo kwa {payee}. Kanda Ishyura ubone kode.",
    fr:
      "La première consultation coûte {amount}, payée par MoMo à {payee}. Touchez Payer pour obtenir le code.",
  },
  pay: { en: "Pay", rw: "Ishyura", fr: "Payer" },
  payCode: {
    en:
      "Pay {amount} to {payee}: dial {code} (or open {link}). Reference {ref}. Your case {case} is with our lawyers either way.",
    rw:
      "Ishyura {amount} kwa {payee}: kanda {code} (cyangwa ufungure {link}). Nimero {ref}. Ikibazo cyawe {case} kiri ku banyamategeko bacu uko byagenda kose.",
    fr:
      "Payez {amount} à {payee} : composez {code} (ou ouvrez {link}). Référence {ref}. Votre affaire {case} est chez nos avocats dans tous les cas.",
  },
  payFailed: {
    en: "The payment could not be prepared: {msg}. Your case {case} is filed all the same.",
    rw:
      "Ubwishyu ntibwashoboye gutegurwa: {msg}. Ikibazo cyawe {case} cyanditswe uko byagenda kose.",
    fr:
      "Le paiement n'a pas pu être préparé : {msg}. Votre affaire {case} est enregistrée quand même.",
  },
  notFiled: {
    en: "Your case was not filed: {msg}",
    rw: "Ikibazo cyawe nticyanditswe: {msg}",
    fr: "Votre affaire n'a pas été enregistrée : {msg}",
  },
  cancelled: {
    en: "OK, nothing was filed. Write again whenever you are ready. (0 = menu)",
    rw: "Nta cyanditswe. Wongere utwandikire igihe cyose witeguye. (0 = menu)",
    fr: "D'accord, rien n'a été enregistré. Écrivez-nous quand vous serez prêt. (0 = menu)",
  },
  noAdvice: {
    en:
      "I'm sorry, I cannot give legal advice, and I cannot tell you what to do in your case: only a lawyer can, once they have read it. I can file your case for a lawyer, or you can talk to a person from our team now.",
    rw:
      "Mumbabarire, sinshobora gutanga inama mu by'amategeko, cyangwa kukubwira icyo ukora ku kibazo cyawe: umunyamategeko wenyine ni we ubishobora, amaze kugisoma. Nshobora kwandika ikibazo cyawe nkagishyikiriza umunyamategeko, cyangwa ukavugana n'umukozi wacu ubu.",
    fr:
      "Désolé, je ne peux pas donner de conseil juridique ni vous dire quoi faire dans votre affaire : seul un avocat le peut, après l'avoir lue. Je peux enregistrer votre affaire pour un avocat, ou vous pouvez parler à une personne de notre équipe maintenant.",
  },
  caseNoted: {
    en: "{category}: I have noted what you told me. A lawyer will read it.",
    rw: "{category}: nanditse ibyo wambwiye. Umunyamategeko azabisoma.",
    fr: "{category} : j'ai noté ce que vous m'avez dit. Un avocat le lira.",
  },
  questionNoted: {
    en:
      "I have noted what happened. I cannot answer your question myself: that is legal advice, which only a lawyer can give once they have read your case. You can also talk to a person now.",
    rw:
      "Nanditse ibyabaye. Sinshobora gusubiza ikibazo cyawe ubwanjye: ni inama mu by'amategeko, itangwa n'umunyamategeko wenyine amaze gusoma ikibazo cyawe. Ushobora no kuvugana n'umukozi wacu ubu.",
    fr:
      "J'ai noté ce qui s'est passé. Je ne peux pas répondre moi-même à votre question : c'est un conseil juridique, que seul un avocat peut donner après avoir lu votre affaire. Vous pouvez aussi parler à une personne maintenant.",
  },
  goOn: { en: "Continue my case", rw: "Komeza ikibazo", fr: "Continuer" },
  person: { en: "Talk to a person", rw: "Vugana n'umuntu", fr: "Parler à quelqu'un" },
  // The confirmation's read-back (case_intake's summary) and the staff ticket.
  confirmFile: {
    en: "File a {category} case for {name} ({phone}): “{summary}”{docs}.",
    rw: "Kwandika ikibazo ({category}) cya {name} ({phone}): “{summary}”{docs}.",
    fr: "Enregistrer une affaire ({category}) pour {name} ({phone}) : « {summary} »{docs}.",
  },
  withDocuments: {
    en: ", with {count|# document|# documents}",
    rw: ", n'inyandiko {count}",
    fr: ", avec {count|# document|# documents}",
  },
  // Leaving the flow with the consultation fee's charge waiting (the kernel's "cancel or keep?").
  openFee: {
    en: "a consultation fee of {amount} to {payee} waiting for your MoMo payment ({ref})",
    rw: "ikiguzi cy'inama y'umunyamategeko cya {amount} kwa {payee} gitegereje MoMo yawe ({ref})",
    fr: "des frais de consultation de {amount} à {payee} en attente de votre paiement MoMo ({ref})",
  },
  feeCancelled: {
    en:
      "Payment {ref} is cancelled: its code no longer pays anything. Your case stays with our lawyers, who have been told. If money already left your account, our team will refund it.",
    rw:
      "Ubwishyu {ref} bwahagaritswe: kode yabwo ntikishyura ikintu. Ikibazo cyawe gikomeza kuba ku banyamategeko bacu, babimenyeshejwe. Niba amafaranga yaravuye kuri konti yawe, abakozi bacu bazayagusubiza.",
    fr:
      "Le paiement {ref} est annulé : son code ne paie plus rien. Votre affaire reste chez nos avocats, qui ont été prévenus. Si de l'argent a déjà quitté votre compte, notre équipe vous le remboursera.",
  },
  feeAlreadyEnded: {
    en: "Payment {ref} had already ended: nothing to cancel.",
    rw: "Ubwishyu {ref} bwari bwararangiye: nta cyo guhagarika.",
    fr: "Le paiement {ref} était déjà terminé : rien à annuler.",
  },
  feeNotCancelled: {
    en: "Sorry, I could not cancel payment {ref}: {msg}",
    rw: "Mutwihanganire, sinashoboye guhagarika ubwishyu {ref}: {msg}",
    fr: "Désolé, je n'ai pas pu annuler le paiement {ref} : {msg}",
  },
} satisfies Record<string, Record<Language, string>>;

/** Says a phrase in a language, with `{values}` filled in. */
export const say = phraseBook(LEGAL_TEXTS);
