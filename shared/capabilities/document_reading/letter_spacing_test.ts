import assert from "node:assert/strict";
import { respaceWords, type WordWithGlyphs } from "./letter_spacing.ts";

/**
 * Words laid out as print: each character `width` px wide and 20 px tall on one baseline,
 * `letterGap` px between the characters of a word and `wordGap` px between words. A word
 * listed as an array of strings is one word to the engine made of those parts, `partGap` apart
 * (how tesseract glues a label to the spaced value after it).
 */
function line(
  spec: Array<{ text: string; letterGap: number; wordGap?: number; engineWord?: number }>,
  options: { width?: number; y?: number } = {},
): WordWithGlyphs[] {
  const width = options.width ?? 12;
  const y = options.y ?? 100;
  const engineWords = new Map<number, WordWithGlyphs>();
  const out: WordWithGlyphs[] = [];
  let x = 10;
  for (const [index, part] of spec.entries()) {
    const glyphs = [...part.text].map((character, i) => {
      const box = { x0: x, y0: y, x1: x + width, y1: y + 20 };
      x += width + (i < part.text.length - 1 ? part.letterGap : 0);
      return { text: character, box };
    });
    x += part.wordGap ?? 0;
    const key = part.engineWord ?? index;
    const word = engineWords.get(key);
    if (word) {
      word.glyphs = [...word.glyphs!, ...glyphs];
      word.text += part.text;
      word.box = { ...word.box, x1: glyphs.at(-1)!.box.x1 };
      continue;
    }
    const made: WordWithGlyphs = {
      text: part.text,
      confidence: 80 + index,
      box: { x0: glyphs[0].box.x0, y0: y, x1: glyphs.at(-1)!.box.x1, y1: y + 20 },
      glyphs,
    };
    engineWords.set(key, made);
    out.push(made);
  }
  return out;
}

/** One-letter words, as tesseract answers widely spaced print. */
function letters(text: string, letterGap: number, wordGap: number, from = 0) {
  return text.split(" ").flatMap((word, w, all) =>
    [...word].map((character, i) => ({
      text: character,
      letterGap: 0,
      wordGap: i < word.length - 1 ? letterGap : w < all.length - 1 ? wordGap : 0,
      engineWord: from + w * 100 + i,
    }))
  );
}

const texts = (words: readonly { text: string }[]) => words.map((word) => word.text);

Deno.test("respaceWords() joins a plate OCR read letter by letter into its words", () => {
  // Letters 9 px apart (0.45 of their height: wider than a word space), words 17 px apart.
  const words = line([
    { text: "Plate", letterGap: 1, wordGap: 8 },
    { text: "No", letterGap: 1, wordGap: 20 },
    ...letters("RAB 123 C", 9, 17, 1000),
  ]);
  assert.equal(words.length, 9);
  assert.deepEqual(texts(respaceWords(words)), ["Plate", "No", "RAB", "123", "C"]);
});

Deno.test("respaceWords() splits a spaced value from the label tesseract glued it to", () => {
  // "VIN No" in ordinary print, then the VIN letter-spaced: one engine word.
  const words = line([
    { text: "VIN", letterGap: 1, wordGap: 7 },
    { text: "No", letterGap: 1, wordGap: 18, engineWord: 1 },
    { text: "MD6NG8AB0C1967246", letterGap: 8, engineWord: 1 },
  ]);
  assert.deepEqual(texts(words), ["VIN", "NoMD6NG8AB0C1967246"]);
  const respaced = respaceWords(words);
  assert.deepEqual(texts(respaced), ["VIN", "No", "MD6NG8AB0C1967246"]);
  // The new word's box is its characters' box; its confidence the engine word's.
  assert.equal(respaced[2].box.x0, words[1].glyphs![2].box.x0);
  assert.equal(respaced[2].box.x1, words[1].box.x1);
  assert.equal(respaced[2].confidence, words[1].confidence);
});

Deno.test("respaceWords() splits a two-word label glued to its spaced value into its words", () => {
  const words = line([
    { text: "Owner's", letterGap: 1, wordGap: 8, engineWord: 0 },
    { text: "name", letterGap: 1, wordGap: 14, engineWord: 0 },
    { text: "INGABIRE", letterGap: 9, engineWord: 0 },
  ]);
  assert.deepEqual(texts(words), ["Owner'snameINGABIRE"]);
  assert.deepEqual(texts(respaceWords(words)), ["Owner's", "name", "INGABIRE"]);
  // A word in capitals with its first boxes overlapping (OCR's rough boxes) is not split.
  const caps = line([
    { text: "TU", letterGap: -7, wordGap: 10, engineWord: 0 },
    { text: "YISENGE", letterGap: 10, engineWord: 0 },
  ]);
  assert.deepEqual(texts(respaceWords(caps)), ["TUYISENGE"]);
});

Deno.test("respaceWords() keeps a spaced name's two words and a spaced ID's groups apart", () => {
  const name = line([
    { text: "Owner", letterGap: 1, wordGap: 20, engineWord: 0 },
    ...letters("INGABIRE FABRICE", 8, 15, 1000).map((part, i) => ({
      ...part,
      // tesseract glued the label to the first letters, and read the rest one by one.
      engineWord: i < 3 ? 0 : part.engineWord,
    })),
  ]);
  assert.deepEqual(texts(respaceWords(name)), ["Owner", "INGABIRE", "FABRICE"]);
  const id = line(letters("1 1980 8 0055596 2 31", 7, 14, 1000));
  assert.deepEqual(texts(respaceWords(id)), ["1", "1980", "8", "0055596", "2", "31"]);
});

Deno.test("respaceWords() leaves ordinary print, a column gap and another baseline alone", () => {
  // Ordinary print: letters 1 px apart, words 6 px (0.3 of the height) apart.
  const plain = line([
    { text: "Sex", letterGap: 1, wordGap: 6 },
    { text: "M", letterGap: 1, wordGap: 6 },
    { text: "1", letterGap: 1, wordGap: 6 },
    { text: "1980", letterGap: 1, wordGap: 6 },
    { text: "8", letterGap: 1, wordGap: 6 },
  ]);
  assert.deepEqual(texts(respaceWords(plain)), ["Sex", "M", "1", "1980", "8"]);
  // Two columns of spaced letters: never joined across the 60 px between them.
  const columns = line([
    ...letters("RAB", 8, 0, 1000).map((part, i) => i === 2 ? { ...part, wordGap: 60 } : part),
    ...letters("TVS", 8, 0, 2000),
  ]);
  assert.deepEqual(texts(respaceWords(columns)), ["RAB", "TVS"]);
  // Letters a row apart (a line OCR merged across two rows) are not one word.
  const rows = line(letters("ABCD", 8, 0, 1000));
  rows[2].box = { ...rows[2].box, y0: 140, y1: 160 };
  rows[2].glyphs = [{ ...rows[2].glyphs![0], box: rows[2].box }];
  rows[3].box = { ...rows[3].box, y0: 140, y1: 160 };
  rows[3].glyphs = [{ ...rows[3].glyphs![0], box: rows[3].box }];
  assert.deepEqual(texts(respaceWords(rows)), ["A", "B", "C", "D"]);
  // One-letter words the engine gave without characters are joined by their own boxes.
  const bare = letters("RAB", 8, 0).map((part, i) => ({
    text: part.text,
    confidence: 90,
    box: { x0: i * 20, y0: 0, x1: i * 20 + 12, y1: 20 },
  }));
  assert.deepEqual(texts(respaceWords(bare)), ["RAB"]);
  // Two one-letter words are two words (`Cat. A B`).
  assert.deepEqual(texts(respaceWords(bare.slice(0, 2))), ["R", "A"]);
});
