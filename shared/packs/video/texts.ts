/**
 * What the Sora-2 Video studio says, in en, rw and fr: the staff member's
 * flow (brief, brand kit, size, length, confirmation) and the messages the
 * background poll sends when a job is ready or failed. Button and row
 * titles stay within WhatsApp's limits (20 and 24 characters).
 *
 * @module
 */
import { type Language, phraseBook } from "@shared/contract/language.ts";

/** Every phrase of the pack. */
export const VIDEO_TEXTS = {
  askBrief: {
    en:
      "Video studio. Describe the ad in a few sentences: the scene, who is in it, what happens, the light and mood. Leave out its length and resolution: you pick those next. (0 = menu)",
    rw:
      "Sitidiyo ya videwo. Sobanura iyamamaza mu nteruro nke: aho bibera, abarimo, ibibaho, urumuri n'umwuka wayo. Ntuvuge igihe imara cyangwa ubwiza bwayo: ubihitamo nyuma. (0 = menu)",
    fr:
      "Studio vidéo. Décrivez la publicité en quelques phrases : la scène, qui y figure, ce qui se passe, la lumière et l'ambiance. Sans durée ni résolution : vous les choisirez ensuite. (0 = menu)",
  },
  briefTooShort: {
    en: "Tell me a bit more: at least a sentence about the scene and what happens. (0 = menu)",
    rw: "Mbwira birenzeho: nibura interuro imwe ku hantu n'ibibaho. (0 = menu)",
    fr: "Dites-m'en un peu plus : au moins une phrase sur la scène et l'action. (0 = menu)",
  },
  briefStatesFormat: {
    en:
      'Your brief says "{phrase}". Length and resolution are settings, not words of the brief: I ask for them next. Please send the brief without it. (0 = menu)',
    rw:
      "Ibisobanuro byawe bivuga \"{phrase}\". Igihe n'ubwiza bwa videwo ni amahitamo, si amagambo y'ibisobanuro: ndabikubaza nyuma. Ongera wohereze utabivuze. (0 = menu)",
    fr:
      "Votre brief dit « {phrase} ». La durée et la résolution sont des réglages, pas des mots du brief : je vous les demande ensuite. Renvoyez le brief sans cela. (0 = menu)",
  },
  askKit: {
    en: "Which brand kit?",
    rw: "Ni ikihe kirango (brand kit)?",
    fr: "Quel kit de marque ?",
  },
  noKit: {
    en:
      "Your org has no brand kit yet, and a video needs one. Ask an admin to add one in the Admin Inbox. (0 = menu)",
    rw:
      "Ikigo cyanyu nta kirango (brand kit) gifite, kandi videwo irakenera. Saba umuyobozi akongeremo kimwe muri Admin Inbox. (0 = menu)",
    fr:
      "Votre organisation n'a pas encore de kit de marque, et une vidéo en demande un. Demandez à un admin d'en ajouter un dans l'Admin Inbox. (0 = menu)",
  },
  kitsButton: { en: "Brand kits", rw: "Ibirango", fr: "Kits de marque" },
  askSize: {
    en: "Which format?",
    rw: "Ni iyihe shusho?",
    fr: "Quel format ?",
  },
  landscape: { en: "Landscape 1280x720", rw: "Itambitse 1280x720", fr: "Paysage 1280x720" },
  portrait: { en: "Portrait 720x1280", rw: "Ihagaze 720x1280", fr: "Portrait 720x1280" },
  askSeconds: {
    en: "How long?",
    rw: "Imare igihe kingana iki?",
    fr: "Quelle durée ?",
  },
  seconds4: { en: "4 seconds", rw: "Amasegonda 4", fr: "4 secondes" },
  seconds8: { en: "8 seconds", rw: "Amasegonda 8", fr: "8 secondes" },
  seconds12: { en: "12 seconds", rw: "Amasegonda 12", fr: "12 secondes" },
  pickOne: {
    en: "Please pick one of the options. (0 = menu)",
    rw: "Hitamo kimwe mu byatanzwe. (0 = menu)",
    fr: "Choisissez une des options. (0 = menu)",
  },
  // The tools' confirmation read-back (sora_generate_video, sora_remix_video).
  confirmGenerate: {
    en: 'Make this video? "{brief}" Brand kit: {kit}. {size}, {seconds} seconds ({model}). {cost}',
    rw:
      'Nkore iyi videwo? "{brief}" Kirango: {kit}. {size}, amasegonda {seconds} ({model}). {cost}',
    fr:
      "Je fais cette vidéo ? « {brief} » Kit de marque : {kit}. {size}, {seconds} secondes ({model}). {cost}",
  },
  confirmRemix: {
    en:
      'Remix the video {job}? Change: "{change}". Same format: {size}, {seconds} seconds ({model}), brand kit {kit}. {cost}',
    rw:
      'Mpindure videwo {job}? Impinduka: "{change}". Ishusho imwe: {size}, amasegonda {seconds} ({model}), kirango {kit}. {cost}',
    fr:
      "Je remixe la vidéo {job} ? Changement : « {change} ». Même format : {size}, {seconds} secondes ({model}), kit de marque {kit}. {cost}",
  },
  cost: {
    en: "Estimated cost: about US${usd} (the provider's list price).",
    rw: "Igiciro gikekwa: hafi US${usd} (igiciro cya serivisi).",
    fr: "Coût estimé : environ {usd} $ US (prix catalogue du fournisseur).",
  },
  costUnknown: {
    en: "The cost is not known in advance.",
    rw: "Igiciro ntikizwi mbere.",
    fr: "Le coût n'est pas connu à l'avance.",
  },
  unknownKit: { en: "(not found)", rw: "(ntikibonetse)", fr: "(introuvable)" },
  queued: {
    en:
      "Queued. Your video is being made; I will send it here when it is ready (about {minutes} minutes).",
    rw:
      "Byashyizwe ku murongo. Videwo yawe iri gukorwa; nzayohereza hano niteguka (nk'iminota {minutes}).",
    fr:
      "C'est lancé. Votre vidéo est en préparation ; je vous l'envoie ici dès qu'elle est prête (environ {minutes} minutes).",
  },
  notQueued: {
    en: "No video was made. (0 = menu)",
    rw: "Nta videwo yakozwe. (0 = menu)",
    fr: "Aucune vidéo n'a été faite. (0 = menu)",
  },
  unavailable: {
    en:
      "Video generation is not set up on this deployment (no provider key), so no job was made. An admin can set it up. (0 = menu)",
    rw:
      "Gukora videwo ntibirashyirwaho hano (nta rufunguzo rwa serivisi), nta kazi kakozwe. Umuyobozi ashobora kubishyiraho. (0 = menu)",
    fr:
      "La génération vidéo n'est pas configurée ici (pas de clé du fournisseur) : aucune tâche n'a été créée. Un admin peut la configurer. (0 = menu)",
  },
  refused: {
    en: "I could not queue it: {reason} (0 = menu)",
    rw: "Sinashoboye kubishyira ku murongo: {reason} (0 = menu)",
    fr: "Je n'ai pas pu la lancer : {reason} (0 = menu)",
  },
  notStaff: {
    en: "The video studio is for staff. (0 = menu)",
    rw: "Sitidiyo ya videwo ni iy'abakozi. (0 = menu)",
    fr: "Le studio vidéo est réservé au personnel. (0 = menu)",
  },
  ready: {
    en: "Your video is ready: {brief}",
    rw: "Videwo yawe yiteguye: {brief}",
    fr: "Votre vidéo est prête : {brief}",
  },
  readyLink: {
    en: "Your video is ready but too large for WhatsApp: {url}\nThe link works until {expires}.",
    rw:
      "Videwo yawe yiteguye ariko ni nini cyane kuri WhatsApp: {url}\nIyi link ikora kugeza {expires}.",
    fr:
      "Votre vidéo est prête mais trop lourde pour WhatsApp : {url}\nLe lien fonctionne jusqu'au {expires}.",
  },
  failed: {
    en:
      "Your video could not be made: {reason}. The team can see it in the Admin Inbox; you can change the brief and try again.",
    rw:
      "Videwo yawe ntiyashoboye gukorwa: {reason}. Abakozi barabibona muri Admin Inbox; ushobora guhindura ibisobanuro ukongera ugerageza.",
    fr:
      "Votre vidéo n'a pas pu être faite : {reason}. L'équipe le voit dans l'Admin Inbox ; vous pouvez changer le brief et réessayer.",
  },
  timedOut: {
    en: "the provider took too long",
    rw: "serivisi yatinze cyane",
    fr: "le fournisseur a mis trop de temps",
  },
} satisfies Record<string, Record<Language, string>>;

/** Says a phrase in a language, with `{values}` filled in. */
export const say = phraseBook(VIDEO_TEXTS);
