/**
 * Document reading, a capability every pack that takes a photo of a paper
 * uses (insurance reads vehicle registrations and policies; legal and
 * property read ID cards and titles): `ocr_extract` reads a photo from our
 * own Storage with the OCR engine the platform provides (`OCR_ENGINE`),
 * classifies the page by its title and labels, reads each field after its
 * label, checks it (plates, VINs and their check digit, national IDs,
 * dates, names) and answers a confidence per field and per document.
 *
 * The engines themselves are heavy (tesseract's WebAssembly, the OpenAI
 * client) and are not re-exported here: only the hosts that read documents
 * import `tesseract_engine.ts`, `openai_engine.ts` or
 * `ocr_engine_from_env.ts`, so no other bundle carries them.
 *
 * @example A pack registers the tool and declares the engine it needs
 * ```ts ignore
 * import { OCR_ENGINE, ocrExtract } from "@shared/capabilities/document_reading/mod.ts";
 * export const pack = { tools: [ocrExtract], services: [OCR_ENGINE] };
 * ```
 *
 * @module
 */
export { OCR_ENGINE, OCR_NOT_HERE, type OcrEngine, type OcrRequest } from "./ocr_engine.ts";
export {
  DOCUMENT_NAMES,
  MAX_IMAGE_BYTES,
  ocrExtract,
  ocrRefusal,
  type StorageReference,
  storageReference,
} from "./ocr_extract.ts";
export {
  classify,
  DOCUMENT_TYPES,
  type DocumentReading,
  type DocumentType,
  fieldsOf,
  isComplete,
  mergeReadings,
  type OcrLine,
  readDocument,
  type ReadDocumentOptions,
  type ReadField,
} from "./read_document.ts";
export {
  type CheckedValue,
  PLATE,
  readDate,
  readName,
  readNationalId,
  readPlate,
  readVin,
  readWord,
  readYear,
  VIN,
  vinCheckDigit,
  vinCheckDigitValid,
} from "./document_fields.ts";
export {
  isPicture,
  isWholePicture,
  MIN_SIDE_PX,
  type PictureSize,
  pictureSize,
} from "./picture_size.ts";
