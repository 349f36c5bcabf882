/**
 * The video studio's work as a customer would ask for it: the router learns these as staff
 * work (`PackAgent.staffWork`) and tells the customer that the team makes videos, never routing
 * them to the studio.
 *
 * @module
 */
import type { Language } from "@shared/contract/language.ts";

/** Customers' requests for a video ad, by language. */
export const VIDEO_STAFF_WORK: Readonly<Record<Language, readonly string[]>> = {
  en: [
    "make a promotional video with ai",
    "generate a video ad",
    "can you generate a promo video for my restaurant",
    "i want a sora video for my business",
    "create an advertising clip for my company",
    "produce a 15 second video commercial",
    "i need a marketing video with my logo",
    "remix my video ad with new colours",
    "animate my product photos into a video ad",
  ],
  rw: [
    "nkorera video yo kwamamaza",
    "ndashaka video yamamaza restaurant yanjye",
    "mwankorera video ya sora yo kwamamaza",
    "nshaka agavideo ko kwamamaza ibicuruzwa",
    "munkorere video yamamaza irimo logo yanjye",
    "ndashaka video ya pub y'amasegonda 15",
    "mukore video yamamaza mu bicuruzwa byanjye",
    "video ya sora ikorwa gute",
  ],
  fr: [
    "creer une video publicitaire avec l'ia",
    "je veux générer une vidéo publicitaire pour ma boutique",
    "faites moi une vidéo promo pour mon restaurant",
    "une vidéo sora pour mon entreprise",
    "créer un clip publicitaire pour ma marque",
    "une pub vidéo de 15 secondes",
    "j'ai besoin d'une vidéo marketing avec mon logo",
    "refaire ma vidéo pub avec d'autres couleurs",
    "transformer les photos de mes produits en vidéo pub",
  ],
};

/** That work as a customer is told the team does it. */
export const VIDEO_STAFF_WORK_NAME: Readonly<Record<Language, string>> = {
  en: "video ads",
  rw: "amashusho yamamaza",
  fr: "les vidéos publicitaires",
};
