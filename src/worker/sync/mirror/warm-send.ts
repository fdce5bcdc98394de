// A send at once (send-at-once.ts) readied before it is needed. A browser asks the server's leave (a CORS preflight,
// one more round trip) before a request with credentials, and keeps the answer only a while for that URL: 5 s in
// Chromium when the server names no Access-Control-Max-Age (pouchdb-server names none; CouchDB names hours). A
// proposal's send is the one a person waits on, so it is readied when one may follow.
import type { Database } from 'pouchdb-browser';
import type { EncryptedDocument } from './mirror';

/** Within the shortest time a browser keeps a preflight's answer: a warm-up sooner than this after the last is not sent. */
export const WARM_MS = 4000;

/**
 * A warm-up of `remote`'s `_bulk_docs`, sent at most once per WARM_MS: an empty write (nothing is stored), with the very
 * URL and headers of a send, so the send that follows within the browser's keeping finds its preflight answered.
 */
export function sendWarmer(remote: Database<EncryptedDocument>, now: () => number = () => performance.now()): () => void {
  let warmedAt = -Infinity;
  return () => {
    if (now() - warmedAt < WARM_MS) return;
    warmedAt = now();
    const headers = new Headers({ 'Content-Type': 'application/json', Accept: 'application/json' });
    void remote
      .fetch('_bulk_docs', { method: 'POST', headers, body: '{"docs":[]}' })
      .then((response) => response.body?.cancel())
      .catch(() => undefined);
  };
}
