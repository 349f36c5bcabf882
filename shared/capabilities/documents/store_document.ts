/**
 * Keeps a rendered PDF in the documents bucket and signs a link to it: the
 * one way documents are stored (`generate_pdf`, insurance certificates).
 * Paths are content-addressed under the org (`<org>/<sha256>.pdf`), so the
 * same document stored twice is one file, and a retry overwrites it with
 * the same bytes.
 *
 * @module
 */
import { BUCKETS, type FileStore } from "@shared/storage/file_store.ts";

/** What to store. */
export interface StoreDocumentOptions {
  /** The org the document belongs to (its folder). */
  orgId: string;
  /** The PDF's bytes and their SHA-256 (hex), as `renderDocument` gives them. */
  document: { bytes: Uint8Array; sha256: string };
  /** How long the link works, seconds (the store caps it at 30 days). */
  linkSeconds: number;
}

/** Where a stored document is, and a link to it. */
export interface StoredDocument {
  /** Its path in the documents bucket. */
  path: string;
  /** A link anyone holding it may GET until `expiresAt`. */
  url: string;
  /** When the link stops working. */
  expiresAt: Date;
}

/** Stores `document` for `orgId` and signs a link to it. */
export async function storeDocument(
  files: FileStore,
  options: StoreDocumentOptions,
): Promise<StoredDocument> {
  const path = `${options.orgId}/${options.document.sha256}.pdf`;
  await files.upload({
    bucket: BUCKETS.documents,
    path,
    bytes: options.document.bytes,
    contentType: "application/pdf",
    upsert: true,
  });
  const link = await files.signedUrl({
    bucket: BUCKETS.documents,
    path,
    expiresInSeconds: options.linkSeconds,
  });
  return { path, url: link.url, expiresAt: link.expiresAt };
}
