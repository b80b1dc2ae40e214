import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

// The trusted operations (queries/*.graphql) as codegen's persisted-documents manifest. Below HTTP and
// telemetry, which both read it: the persisted-query route answers their hashes, the metrics give
// their operation names labels of their own.

/**
 * The manifest codegen writes: `sha256:<hex>` → document text (the trusted operations in `queries/`),
 * the same texts and hashes as the client package's typed documents.
 */
export const persistedDocumentsPath = new URL('../generated/persisted-documents.json', import.meta.url);

/**
 * Reads the trusted manifest. Every key must be the SHA-256 of its text, the text a client sends and
 * hashes: a manifest that says otherwise would answer one document's hash with another document's
 * data, so it stops the start instead.
 */
export function loadPersistedDocuments(path: URL | string = persistedDocumentsPath): Map<string, string> {
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const documents = new Map<string, string>();
  for (const [id, text] of Object.entries(manifest)) {
    const hash = normalizeHash(id);
    if (!hash || typeof text !== 'string') throw new Error(`${String(path)}: "${id}" is not a sha256:<hex> key with a document text`);
    if (sha256Hex(text) !== hash) throw new Error(`${String(path)}: "${id}" is not the SHA-256 of its text; run npm run codegen`);
    documents.set(hash, text);
  }
  return documents;
}

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** `sha256:<hex>` or bare hex → lower-case hex; anything else → undefined. */
export function normalizeHash(value: string): string | undefined {
  const hex = value.trim().toLowerCase().replace(/^sha256:/, '');
  return HEX_SHA256.test(hex) ? hex : undefined;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
