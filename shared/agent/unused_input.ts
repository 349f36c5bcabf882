/**
 * A photo, file, voice note or location sent where the flow asked for
 * something else is never passed over in silence: the kernel sees that the
 * flow never looked at it and says, in the person's language, what it cannot
 * use and what the question below expects.
 *
 * A flow "looks at" a photo or a location by reading `input.media` or
 * `input.location`; flows that take them (a document's photo, a pickup pin)
 * read them at the steps that want them, and every other step never does.
 *
 * @module
 */
import { type Language, phraseBook } from "@shared/contract/language.ts";
import type { AgentReply, TurnInput } from "@shared/registry/pack.ts";

const say = phraseBook({
  photo: {
    en: "I cannot use a photo here.",
    rw: "Sinshobora gukoresha ifoto hano.",
    fr: "Je ne peux pas utiliser une photo ici.",
  },
  file: {
    en: "I cannot use a file here.",
    rw: "Sinshobora gukoresha dosiye hano.",
    fr: "Je ne peux pas utiliser un fichier ici.",
  },
  voice: {
    en: "I cannot listen to voice notes or videos yet.",
    rw: "Sindashobora kumva ubutumwa bw'ijwi cyangwa amashusho.",
    fr: "Je ne peux pas encore écouter les messages vocaux ni les vidéos.",
  },
  location: {
    en: "I cannot use a location here.",
    rw: "Sinshobora gukoresha aho uri hano.",
    fr: "Je ne peux pas utiliser une position ici.",
  },
  inWords: {
    en: "Please answer the question below in words:",
    rw: "Subiza ikibazo kiri hasi mu magambo:",
    fr: "Répondez à la question ci-dessous par écrit :",
  },
  inWordsOrPin: {
    en: "Please answer the question below in words, or share your location (📎 → Location):",
    rw: "Subiza ikibazo kiri hasi mu magambo, cyangwa wohereze aho uri (📎 → Location):",
    fr: "Répondez à la question ci-dessous par écrit, ou partagez votre position (📎 → Position) :",
  },
  tellInWords: {
    en: "Please tell me in words.",
    rw: "Mbwira mu magambo.",
    fr: "Dites-le-moi par écrit.",
  },
});

/** Where the unread photo, file or location was sent: a flow's question, or the model's turn. */
export type NoticeFor = "flow" | "model";

/** A turn's input whose photo and location reads are watched. */
export interface WatchedInput {
  /** The input to give the flow: the same values, its reads recorded. */
  input: TurnInput;
  /**
   * What to say before the replies when the turn carried only a photo, file
   * or location (no words, no tapped choice) that was never read; none
   * otherwise. A flow step that looked for a location pin (read
   * `input.location`) asks for words or a pin. The model is given a location
   * as its coordinates and no photo or file: for it, a photo or file alone
   * asks to be told in words. @default "flow"
   */
  notice(language: Language, noticeFor?: NoticeFor): AgentReply[];
}

/** Watches which of `input`'s photo and location the flow reads. */
export function watchInput(input: TurnInput): WatchedInput {
  const read = { media: false, location: false };
  const watched: TurnInput = { ...input };
  for (const key of ["media", "location"] as const) {
    Object.defineProperty(watched, key, {
      enumerable: true,
      get: () => {
        read[key] = true;
        return input[key];
      },
    });
  }
  return {
    input: watched,
    notice(language, noticeFor = "flow") {
      // Words (a photo's caption) or a tapped choice are the answer the flow read.
      if (input.text || input.choice) return [];
      // The model is given a location as its coordinates, and no photo or file.
      const unused = input.media && !read.media
        ? mediaKind(input.media.type)
        : input.location && !read.location && noticeFor === "flow"
        ? "location"
        : null;
      if (!unused) return [];
      const ask = noticeFor === "model"
        ? "tellInWords"
        : unused !== "location" && read.location
        ? "inWordsOrPin"
        : "inWords";
      return [{ text: `${say(unused, language)} ${say(ask, language)}` }];
    },
  };
}

/** What the model is told a turn without words carried, when it carried a photo or file. */
export function unusedMediaForModel(input: TurnInput): string | null {
  if (input.text || !input.media) return null;
  return `(sent a ${
    { photo: "photo", file: "file", voice: "voice note or video" }[mediaKind(input.media.type)]
  }, which cannot be read here; the user was asked to say it in words)`;
}

function mediaKind(type: string): "photo" | "file" | "voice" {
  if (type === "image" || type === "sticker" || type.startsWith("image/")) return "photo";
  if (type === "audio" || type === "video" || /^(audio|video)\//.test(type)) return "voice";
  return "file";
}
