import { fromBase64, toBase64 } from '../../../core/base64';

/**
 * End-to-end encryption of synced documents. The passphrase never leaves the device and is not stored: it
 * derives, with PBKDF2-SHA-256 and a per-database random salt kept on the server, one secret from which HKDF makes
 * an AES-GCM key for document bodies and an HMAC key for document ids. Both keys are non-extractable CryptoKeys, which
 * IndexedDB can store as they are, so a reload needs no passphrase and no script can read the key's bytes.
 */

/** PBKDF2 iterations for new databases: OWASP's 2023 figure for PBKDF2-HMAC-SHA-256. Stored with the salt. */
const PBKDF2_ITERATIONS = 600_000;
/** The id of the one document that is not encrypted: the salt, the iterations, and a check of the passphrase. */
export const KEY_DOC_ID = 'parley-key';
const CHECK_TEXT = 'parley-sync-key-check-v1';

export interface SyncKeys {
  /** AES-GCM, 256 bits: document bodies. */
  content: CryptoKey;
  /** HMAC-SHA-256: document ids, so an id says nothing of what it names. */
  ids: CryptoKey;
}

/** The key document as the server stores it (plain JSON: nothing in it is secret). */
export interface KeyDocument {
  _id: typeof KEY_DOC_ID;
  _rev?: string;
  format: 'parley-sync';
  version: 1;
  kdf: { name: 'PBKDF2'; hash: 'SHA-256'; iterations: number; salt: string };
  /** CHECK_TEXT encrypted with the content key: a wrong passphrase fails to open it. */
  check: { iv: string; ct: string };
}

/** An encrypted body: AES-GCM's 96-bit nonce and the ciphertext with its tag, base64. */
interface Sealed {
  iv: string;
  ct: string;
}

async function deriveKeys(passphrase: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<SyncKeys> {
  const subtle = crypto.subtle;
  const material = await subtle.importKey('raw', new TextEncoder().encode(passphrase.normalize('NFC')), 'PBKDF2', false, ['deriveBits']);
  const bits = await subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, material, 256);
  const master = await subtle.importKey('raw', bits, 'HKDF', false, ['deriveKey']);
  const info = (label: string) => ({ name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new TextEncoder().encode(label) });
  const [content, ids] = await Promise.all([
    subtle.deriveKey(info('parley content'), master, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']),
    subtle.deriveKey(info('parley ids'), master, { name: 'HMAC', hash: 'SHA-256', length: 256 }, false, ['sign']),
  ]);
  return { content, ids };
}

/** A new key document for an empty database, and the keys it stands for. */
export async function newKeyDocument(passphrase: string, iterations = PBKDF2_ITERATIONS): Promise<{ document: KeyDocument; keys: SyncKeys }> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const keys = await deriveKeys(passphrase, salt, iterations);
  const check = await seal(keys, CHECK_TEXT);
  return { document: { _id: KEY_DOC_ID, format: 'parley-sync', version: 1, kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations, salt: toBase64(salt) }, check }, keys };
}

/** The keys for an existing database; undefined when the passphrase is not the one it was made with. */
export async function openKeyDocument(document: KeyDocument, passphrase: string): Promise<SyncKeys | undefined> {
  const keys = await deriveKeys(passphrase, fromBase64(document.kdf.salt), document.kdf.iterations);
  try {
    return (await open(keys, document.check)) === CHECK_TEXT ? keys : undefined;
  } catch {
    return undefined; // the tag did not verify: another key
  }
}

/** Whether a server document is a key document Parley can read (it is the only plaintext one, so it is checked). */
export function isKeyDocument(value: unknown): value is KeyDocument {
  const document = value as Partial<KeyDocument> | null;
  const kdf = document?.kdf;
  return (
    typeof document === 'object' && document !== null && document._id === KEY_DOC_ID && document.format === 'parley-sync' && document.version === 1 &&
    kdf?.name === 'PBKDF2' && kdf.hash === 'SHA-256' && Number.isInteger(kdf.iterations) && kdf.iterations >= 100_000 && kdf.iterations <= 10_000_000 &&
    typeof kdf.salt === 'string' && typeof document.check?.iv === 'string' && typeof document.check.ct === 'string'
  );
}

const encoder = new TextEncoder();

/** A text's UTF-8 bytes, as `seal` seals them (one encoding for a caller that also digests them). */
export function utf8Of(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text);
}

/** Seals a text, or its UTF-8 bytes (`utf8Of`). */
export async function seal(keys: SyncKeys, text: string | Uint8Array<ArrayBuffer>): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, keys.content, typeof text === 'string' ? encoder.encode(text) : text));
  return { iv: toBase64(iv), ct: toBase64(ct) };
}

/** The plaintext of a sealed body; throws when it was not sealed with these keys or was altered. */
export async function open(keys: SyncKeys, sealed: Sealed): Promise<string> {
  const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: fromBase64(sealed.iv) }, keys.content, fromBase64(sealed.ct));
  return new TextDecoder().decode(plain);
}

/** A document id for a record: an HMAC of what it names, so ids carry no content and equal records meet at one id. */
export async function documentId(keys: SyncKeys, kind: string, ...parts: string[]): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', keys.ids, new TextEncoder().encode([kind, ...parts].join('\u0000'))));
  return `p${toHex(mac.subarray(0, 20))}`;
}

function toHex(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += byte.toString(16).padStart(2, '0');
  return text;
}

/** Whether a document (the server's) is the key document `mine` (the same salt and check). */
export function sameKeyDocument(found: unknown, mine: KeyDocument): boolean {
  return isKeyDocument(found) && found.kdf.salt === mine.kdf.salt && found.kdf.iterations === mine.kdf.iterations && found.check.iv === mine.check.iv && found.check.ct === mine.check.ct;
}
