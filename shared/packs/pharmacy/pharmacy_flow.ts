/**
 * The pharmacy agent offline: a medicine by name across nearby pharmacies
 * (cheapest first), a pharmacy's stock, several medicines with quantities,
 * the read-back, the order number, MoMo payment and status (the shared
 * ordering steps). Prescription-only medicines are marked ℞ and the order
 * notes it. A prescription photo is read by a pharmacist: OCR has no
 * prescription reader, so the photo goes to staff with its reference
 * (`notify_staff`), and the user is told so. A symptom is never searched as
 * a medicine ("j'ai mal à la tête"): the agent gives no medical advice, and
 * lists the pharmacies so a pharmacist can.
 *
 * @module
 */
import { z } from "zod";
import { phraseBook } from "@shared/contract/language.ts";
import {
  orderFlow,
  ORDERING_MEMORY_VERSION,
  orderingMemory,
} from "@shared/capabilities/ordering/mod.ts";
import { type FlowMemory, typedFlow, type TypedTurn } from "@shared/registry/flow_memory.ts";
import type { OfflineFlow, OfflineStep, OfflineToolCaller } from "@shared/registry/pack.ts";
import { callTyped } from "@shared/registry/tool_call.ts";
import { CONDITION_WORDS, SYMPTOM_WORDS } from "./symptom_words.ts";

/** What the pharmacy agent says offline. */
export const PHARMACY_TEXTS = {
  askVenue: {
    en: "Which pharmacy? Type a number, tap a pharmacy, or type the medicine you need.",
    rw: "Farumasi iyihe? Andika nimero, kanda kuri farumasi, cyangwa wandike umuti ukeneye.",
    fr:
      "Quelle pharmacie ? Tapez un numéro, touchez une pharmacie, ou écrivez le médicament qu'il vous faut.",
  },
  noVenues: {
    en: "I found no pharmacy right now. Type “menu” for the main menu.",
    rw: "Nta farumasi mbonye ubu. Andika “menu” usubire ahabanza.",
    fr: "Je n'ai trouvé aucune pharmacie pour l'instant. Écrivez « menu » pour le menu principal.",
  },
  noAdvice: {
    en:
      "I cannot advise which medicine to take: a pharmacist can. Pick a pharmacy below and ask them (share your location to see the nearest first). If you know the medicine's name, type it and I will find it.",
    rw:
      "Sinshobora kukugira inama y'umuti wafata: umufarumasiye ni we wabikora. Hitamo farumasi hepfo umubaze (ohereza aho uri urebe iziri hafi mbere). Niba uzi izina ry'umuti, ryandike ndawugushakire.",
    fr:
      "Je ne peux pas vous conseiller de médicament : un pharmacien le peut. Choisissez une pharmacie ci-dessous et demandez-lui (partagez votre position pour voir les plus proches). Si vous connaissez le nom du médicament, écrivez-le et je le chercherai.",
  },
  prescriptionSent: {
    en:
      "Thank you. A pharmacist will read your prescription and answer you here; I cannot read prescriptions myself.",
    rw:
      "Murakoze. Umufarumasiye arasoma urupapuro rwa muganga rwawe akugarukire hano; njye sinshobora kurusoma.",
    fr:
      "Merci. Un pharmacien va lire votre ordonnance et vous répondra ici ; je ne peux pas lire les ordonnances moi-même.",
  },
  prescriptionFailed: {
    en: "Sorry, I could not pass your prescription to a pharmacist: {msg}. Please send it again.",
    rw:
      "Mutwihanganire, sinashoboye kugeza urupapuro rwawe ku mufarumasiye: {msg}. Ongera urwohereze.",
    fr: "Désolé, je n'ai pas pu transmettre votre ordonnance à un pharmacien : {msg}. Renvoyez-la.",
  },
} as const;

const say = phraseBook(PHARMACY_TEXTS);

// Words around a medicine's name that are not the name.
// Words that ask rather than name a medicine (greetings and articles too: "Bonjour, je cherche
// une pharmacie" is no search for "Bonjour une"; "I want to buy medicine", said in another
// service's flow, names none either; nor does "I have", "what should I take", "que prendre",
// "nfate").
const FILLER =
  /(?<![\p{L}])(pharmacy|pharmacie|farumasi|medicines?|medications?|drugs?|m[ée]dicaments?|i need|need|i want to buy|i want|want to buy|to buy|buy|do you have|avez-vous|vous avez|je cherche|je veux acheter|je voudrais acheter|je veux|je voudrais|il me faut|acheter|what (?:can|should) i take|which one|i have|have|has|got|something|quelque chose|mfite|afite|que prendre|quoi prendre|que dois-je prendre|nfate|uwuhe|ndashaka kugura|nshaka kugura|kugura|ndashaka|nshaka|nkeneye|mufite|imiti|umuti|hello|bonjour|bonsoir|salut|muraho|mwiriwe|mwaramutse|please|svp|une|des|some)(?![\p{L}])/giu;

const ordering = orderFlow({
  category: "pharmacy",
  texts: PHARMACY_TEXTS,
  searchStock: true,
  prescriptions: true,
  filler: FILLER,
  symptoms: { words: SYMPTOM_WORDS, named: CONDITION_WORDS, reply: PHARMACY_TEXTS.noAdvice },
});

/**
 * What the pharmacy agent keeps between turns (version 1): the ordering
 * steps' memory, nothing of its own (a prescription photo is passed on at
 * once). It follows {@link ORDERING_MEMORY_VERSION}: a change to the ordering
 * memory bumps this version too.
 */
const pharmacyMemory = z.object(orderingMemory);
const PHARMACY_MEMORY_VERSION = ORDERING_MEMORY_VERSION;

// The support pack's `notify_staff`, as this flow reads it: whether it went (a pack imports
// no other pack's definitions).
const notifyStaff = { name: "notify_staff", output: z.object({}) };

async function pharmacyStep(
  turn: TypedTurn<z.output<typeof pharmacyMemory>>,
  callTool: OfflineToolCaller,
): Promise<OfflineStep> {
  const media = turn.input.media;
  if (media && (media.type === "image" || media.type === "document")) {
    const order = turn.memory.step?.order;
    const result = await callTyped(callTool, notifyStaff, {
      channel: "inbox",
      payload: {
        reason: "prescription to read",
        summary: [
          "The customer sent a prescription photo for a pharmacist to read.",
          media.ref ? `Photo: ${media.ref}` : "Photo: not saved",
          order ? `Order ${order.no} at ${order.venue}.` : "No order yet.",
          turn.input.text ? `Caption: ${turn.input.text}` : "",
        ].filter(Boolean).join("\n"),
        priority: "high",
      },
    }, "prescription");
    return {
      replies: [{
        text: result.ok
          ? say("prescriptionSent", turn.language)
          : say("prescriptionFailed", turn.language, { msg: result.error.msg }),
      }],
    };
  }
  return await ordering(turn, callTool);
}

const pharmacy = typedFlow({
  version: PHARMACY_MEMORY_VERSION,
  memory: pharmacyMemory,
  step: pharmacyStep,
});

/** One offline step of the pharmacy agent. */
export const pharmacyFlow: OfflineFlow = pharmacy.offlineFlow;

/** What the pharmacy agent's flow keeps between turns, typed and versioned. */
export const pharmacyFlowMemory: FlowMemory = pharmacy.memory;
