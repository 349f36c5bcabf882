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
    en: "I cannot use a photo here. Please answer the question below in words:",
    rw: "Sinshobora gukoresha ifoto hano. Subiza ikibazo kiri hasi mu magambo:",
    fr: "Je ne peux pas utiliser une photo ici. Répondez à la question ci-dessous par écrit :",
  },
  file: {
    en: "I cannot use a file here. Please answer the question below in words:",
    rw: "Sinshobora gukoresha dosiye hano. Subiza ikibazo kiri hasi mu magambo:",
    fr: "Je ne peux pas utiliser un fichier ici. Répondez à la question ci-dessous par écrit :",
  },
  voice: {
    en: "I cannot listen to voice notes or videos yet. Please answer the question below in words:",
    rw:
      "Sindashobora kumva ubutumwa bw'ijwi cyangwa amashusho. Subiza ikibazo kiri hasi mu magambo:",
    fr:
      "Je ne peux pas encore écouter les messages vocaux ni les vidéos. Répondez à la question ci-dessous par écrit :",
  },
  location: {
    en: "I cannot use a location here. Please answer the question below in words:",
    rw: "Sinshobora gukoresha aho uri hano. Subiza ikibazo kiri hasi mu magambo:",
    fr: "Je ne peux pas utiliser une position ici. Répondez à la question ci-dessous par écrit :",
  },
});

/** A turn's input whose photo and location reads are watched. */
export interface WatchedInput {
  /** The input to give the flow: the same values, its reads recorded. */
  input: TurnInput;
  /**
   * What to say before the flow's replies when the turn carried only a
   * photo, file or location (no words, no tapped choice) that the flow never
   * read; none otherwise.
   */
  notice(language: Language): AgentReply[];
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
    notice(language) {
      // Words (a photo's caption) or a tapped choice are the answer the flow read.
      if (input.text || input.choice) return [];
      if (input.media && !read.media) return [{ text: say(mediaKind(input.media.type), language) }];
      if (input.location && !read.location) return [{ text: say("location", language) }];
      return [];
    },
  };
}

function mediaKind(type: string): "photo" | "file" | "voice" {
  if (type === "image" || type === "sticker" || type.startsWith("image/")) return "photo";
  if (type === "audio" || type === "video" || /^(audio|video)\//.test(type)) return "voice";
  return "file";
}
