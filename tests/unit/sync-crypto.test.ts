import { describe, expect, it } from 'vitest';
import { documentId, isKeyDocument, newKeyDocument, open, openKeyDocument, seal } from '../../src/worker/sync/documents/sync-crypto';

// What the sync server holds is ciphertext under a key only the passphrase gives.
describe('sync encryption', { timeout: 30_000 }, () => {
  it('a key document opens with its passphrase only, and says nothing of it', async () => {
    const { document, keys } = await newKeyDocument('correct horse battery staple', 100_000);
    expect(isKeyDocument(document)).toBe(true);
    expect(JSON.stringify(document)).not.toContain('correct horse');
    expect(await openKeyDocument(document, 'correct horse battery staple')).toBeDefined();
    expect(await openKeyDocument(document, 'correct horse battery stapler')).toBeUndefined();
    // The keys it opens are the same keys: what one device sealed, another opens.
    const reopened = (await openKeyDocument(document, 'correct horse battery staple'))!;
    expect(await open(reopened, await seal(keys, 'Plan a trip'))).toBe('Plan a trip');
  });

  it('a sealed body hides its text, differs each time, and fails to open when altered or under another key', async () => {
    const { keys } = await newKeyDocument('one passphrase', 100_000);
    const { keys: others } = await newKeyDocument('one passphrase', 100_000); // same words, another salt: another key
    const first = await seal(keys, 'My API key is sk-secret');
    const second = await seal(keys, 'My API key is sk-secret');
    expect(first.ct).not.toBe(second.ct);
    expect(atob(first.ct)).not.toContain('sk-secret');
    const flipped = atob(first.ct).split('');
    flipped[3] = String.fromCharCode(flipped[3]!.charCodeAt(0) ^ 1);
    await expect(open(keys, { iv: first.iv, ct: btoa(flipped.join('')) })).rejects.toThrow();
    await expect(open(others, first)).rejects.toThrow();
  });

  it('a document id is the same for the same record under the same key, and carries none of its name', async () => {
    const { keys } = await newKeyDocument('one passphrase', 100_000);
    const { keys: others } = await newKeyDocument('one passphrase', 100_000);
    const id = await documentId(keys, 'conversation', 'trip-plans-2026');
    expect(await documentId(keys, 'conversation', 'trip-plans-2026')).toBe(id);
    expect(await documentId(keys, 'message', 'trip-plans-2026')).not.toBe(id);
    expect(await documentId(others, 'conversation', 'trip-plans-2026')).not.toBe(id);
    expect(id).toMatch(/^p[0-9a-f]{40}$/);
  });

  it('a document that only looks like a key document is not taken for one', () => {
    expect(isKeyDocument({ _id: 'parley-key', format: 'parley-sync', version: 1, kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 1, salt: 'AA==' }, check: { iv: '', ct: '' } })).toBe(false);
    expect(isKeyDocument({ _id: 'parley-key' })).toBe(false);
    expect(isKeyDocument(null)).toBe(false);
  });
});
