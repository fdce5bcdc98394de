// The mirror's writes of this device's documents (pouch-database-mirror.ts's `putMany`) and their sending to the server
// at once (send-at-once.ts). A write's new documents are written to the mirror and sent at the same time, with one
// first revision chosen here: a proposal reaches the device that runs its conversation without waiting for the mirror's
// IndexedDB commit first, and an initial upload's server writes go on beside its mirror's.
import type { Database } from 'pouchdb-browser';
import { putDocuments, untilSentOrLater } from './bulk-documents';
import type { knownRevisions } from './known-revisions';
import type { EncryptedDocument } from './mirror';
import type { sendAtOnce, Written } from './send-at-once';
import type { Landing } from './server-documents';

interface Sending {
  atOnce: ReturnType<typeof sendAtOnce>;
  known: ReturnType<typeof knownRevisions>;
  /** The replication's pull asks the mirror about a revision being written once its write has ended. */
  landing: Landing;
}

/**
 * `putMany` over `local`: each document written over the revision it names, then sent to the server, or, for documents
 * new to the mirror, written and sent at once (`putFirstRevisions`). Only to the server this device joined
 * (`replicating`): while replication is stopped nothing goes there. A large write resolves once the sends before it
 * are answered too, so the writer (an initial upload) seals the next part while this one is sent, and no further ahead.
 */
export function writeAndSend(local: Database<EncryptedDocument>, sending: Sending, replicating: () => boolean): (documents: EncryptedDocument[]) => Promise<Array<Error | undefined>> {
  const { atOnce, known } = sending;
  /** Written to the mirror, then sent to the server. */
  const putAndSend = async (documents: EncryptedDocument[]): Promise<Array<Error | undefined>> => {
    if (documents.length === 0) return [];
    const written: Written[] = [];
    const errors = await putDocuments(local, documents, (document, rev) => {
      known.written(document._id, rev);
      written.push({ document, rev, ...(document._rev ? { parent: document._rev } : {}) });
    });
    // A large write (an initial upload's) waits for the sends before it: the next one is sealed while this one is sent.
    if (replicating() && written.length > 0) {
      const before = atOnce.sent();
      void atOnce.send(written);
      if (atOnce.large(written.map((entry) => entry.document))) await untilSentOrLater(before);
    }
    return errors;
  };
  /** The indexes of `documents` new to the mirror: no revision named, none held under the id, not twice in the write. */
  const newDocuments = (documents: EncryptedDocument[]): Set<number> => {
    const fresh = new Set<number>();
    const ids = new Set<string>();
    documents.forEach((document, index) => {
      if (document._rev === undefined && !document._deleted && !known.holds(document._id) && !ids.has(document._id)) fresh.add(index);
      ids.add(document._id);
    });
    return fresh;
  };
  return async (documents) => {
    const fresh = replicating() ? newDocuments(documents) : new Set<number>();
    if (fresh.size === 0) return putAndSend(documents);
    const before = atOnce.sent();
    const [first, others] = await Promise.all([
      putFirstRevisions(local, documents.filter((_, index) => fresh.has(index)), sending),
      putAndSend(documents.filter((_, index) => !fresh.has(index))),
    ]);
    // A large write (an initial upload's) waits for the sends before it, as putAndSend's does.
    if (atOnce.large(documents)) await untilSentOrLater(before);
    return documents.map((_, index) => (fresh.has(index) ? first : others).shift());
  };
}

/**
 * Writes `documents` (new to the mirror: no `_rev`, none held under their ids) as first revisions `1-` and 32 random hex
 * digits, to `local` with `new_edits: false` and to the server (`atOnce`) at once, neither waiting for the other. What
 * each came to, in order, as `putMany` says it; resolves once the mirror's write has ended (not the server's answer).
 *
 * A document counts as written once either side holds it. The mirror: its write is what the replication carries to the
 * server when the send fails, so a send's failure loses nothing. The server: when the mirror's write fails, the send is
 * waited for, and a revision the server took is written (it has left this device, and the runner applies a proposal
 * as soon as it hears it, so calling it failed would be untrue: a retry would propose it again); the replication brings it
 * into the mirror with the same revision, which is known as this device's own then. Only a document neither side took
 * is an error. (A send whose answer was lost while the mirror's write failed leaves a proposal on the server that this
 * device calls failed; the runner applies each nonce once, and a retried answer meets a request already answered.)
 */
async function putFirstRevisions(local: Database<EncryptedDocument>, documents: EncryptedDocument[], { atOnce, known, landing }: Sending): Promise<Array<Error | undefined>> {
  const written = documents.map((document) => ({ document, rev: `1-${crypto.randomUUID().replaceAll('-', '')}` }));
  // The replication's pull may hear the revision from the server before the mirror's write ends: its question to the
  // mirror waits for the write (`landing`), then finds it held, or lacking when the write failed, and fetches it.
  // Said held at once, so that another write under the same id is not written as new too (see `putMany`).
  for (const { document, rev } of written) {
    known.written(document._id, rev);
    landing.expect(document._id);
  }
  const sending = atOnce.send(written);
  const failed = new Map<string, Error>();
  try {
    const revisions = written.map(({ document, rev }) => ({ ...document, _rev: rev, _revisions: { start: 1, ids: [rev.slice(2)] } }));
    // With new_edits false, PouchDB answers only the documents it could not write.
    for (const result of await local.bulkDocs(revisions as EncryptedDocument[], { new_edits: false })) {
      if ('error' in result && result.error && result.id) failed.set(result.id, Object.assign(new Error(result.message ?? result.name ?? 'write failed'), { status: result.status, name: result.name ?? 'Error' }));
    }
  } catch (error) {
    for (const { document } of written) failed.set(document._id, error instanceof Error ? error : new Error(String(error)));
  }
  for (const { document, rev } of written) {
    if (failed.has(document._id)) known.notWritten(document._id, rev);
    landing.landed(document._id);
  }
  if (failed.size === 0) return documents.map(() => undefined);
  await untilSentOrLater(sending);
  return written.map(({ document, rev }) => (failed.has(document._id) && !atOnce.holds(document._id, rev) ? failed.get(document._id) : undefined));
}
