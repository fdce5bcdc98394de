// A write of this device's sent to the server at once, instead of waiting for the live replication to notice it, ask
// the server which revisions it lacks, read each document back from the mirror and send it (queued behind any batch or
// checkpoint it has under way): a small one (a proposal, its outcome, the runner's records of a round) in one request of
// its own, at once, a large one (an initial upload) in requests of SEND_DOCUMENTS, one after the other. A small one
// never waits behind a large one's queue: only behind a request still carrying an earlier revision of one of its
// documents (the server could not place it before that one). The replication still runs: it finds these revisions on the
// server and sends nothing again, and it carries whatever was not sent here.
import type { Database } from 'pouchdb-browser';
import type { RevsDiff } from './bulk-documents';
import type { EncryptedDocument } from './mirror';

/** A write of more documents or characters than this is large: sent in several requests (see `send`). */
const MOST_DOCUMENTS = 20;
const MOST_CHARACTERS = 256 * 1024;
/** The most documents one request to the server carries: the replication's own batch size. */
const SEND_DOCUMENTS = 200;
/**
 * How many documents' revisions on the server are remembered (the newest): more than an initial upload of 100,000
 * messages writes (about 5,200 documents), so the replication, which follows behind, is not told to ask about them.
 */
const REMEMBERED = 20_000;

/** The newest revision known of each of the most recently named documents (at most REMEMBERED). */
export class RecentRevisions {
  private readonly revisions = new Map<string, string>();

  set(id: string, rev: string): void {
    this.revisions.delete(id);
    this.revisions.set(id, rev);
    if (this.revisions.size > REMEMBERED) this.revisions.delete(this.revisions.keys().next().value!);
  }

  get(id: string): string | undefined {
    return this.revisions.get(id);
  }

  delete(id: string): void {
    this.revisions.delete(id);
  }

  clear(): void {
    this.revisions.clear();
  }
}

/** A revision this device wrote to its mirror: the document as written, with the revision it replaced (`parent`). */
export interface Written {
  document: EncryptedDocument;
  rev: string;
  parent?: string;
}

/**
 * Sends written revisions to `remote` with `new_edits: false` (as the replication does, so the server keeps the same
 * revision and history). A revision is sent only with a history the server can place: a first revision, or one whose
 * parent the server is known to hold (sent from here, or seen to go either way by the replication); any other is left
 * to the replication, which sends its whole history. Failures are left to the replication too.
 */
export function sendAtOnce(remote: Database<EncryptedDocument>, heard: (id: string, rev: string) => void = () => undefined) {
  const onServer = new RecentRevisions();
  /** The last of the large writes' requests, which go one after the other. */
  let queue: Promise<void> = Promise.resolve();
  /** Requests handed over and not answered yet (each settles, well or not, never rejects). */
  const unanswered = new Set<Promise<void>>();
  /** The latest request carrying each document: a later revision of it is sent once that one is answered. */
  const carrying = new Map<string, Promise<void>>();

  /** One request for `part`, once the requests in `after` and those carrying its documents are answered. */
  const request = (part: Written[], after: Array<Promise<void>>): Promise<void> => {
    const ids = part.map((entry) => entry.document._id);
    const before = [...after, ...ids.flatMap((id) => carrying.get(id) ?? [])];
    const answered = Promise.all(before)
      .then(() => sendPart(remote, part, onServer, heard))
      .catch(() => undefined);
    unanswered.add(answered);
    for (const id of ids) carrying.set(id, answered);
    void answered.then(() => {
      unanswered.delete(answered);
      for (const id of ids) if (carrying.get(id) === answered) carrying.delete(id);
    });
    return answered;
  };
  const sent = async (): Promise<void> => {
    await Promise.all([queue, ...unanswered]);
  };
  /** Whether `documents` are a large write (see MOST_DOCUMENTS): its writer should not outrun the sends (see `sent`). */
  const large = (documents: EncryptedDocument[]): boolean => {
    const characters = documents.reduce((sum, document) => sum + (document.ct?.length ?? 0) + (document.s?.ct.length ?? 0) + (document.m?.ct.length ?? 0), 0);
    return documents.length > MOST_DOCUMENTS || characters > MOST_CHARACTERS;
  };

  return {
    /** Whether a send is under way: the server may not hold yet what this device wrote to the mirror. */
    get busy(): boolean {
      return unanswered.size > 0;
    },
    /** The server is not known to hold anything any more (it lost its data, or is another one). */
    forget(): void {
      onServer.clear();
    },
    /** The server holds `rev` of document `id` (the replication moved it, either way). */
    held(id: string, rev: string): void {
      onServer.set(id, rev);
      heard(id, rev);
    },
    /** Whether the server is known to hold `rev` of document `id` (sent from here, or moved by the replication). */
    holds(id: string, rev: string): boolean {
      return onServer.get(id) === rev;
    },
    large,
    /** Resolves once everything handed to `send` so far has been answered (well or not). */
    sent,
    /**
     * Sends what can be sent of `written`; resolves once the server answered. A large write's requests go after the
     * large writes handed over before it; a small write's at once (see the file's head).
     */
    send(written: Written[]): Promise<void> {
      if (!large(written.map((entry) => entry.document))) return request(written, []);
      for (let start = 0; start < written.length; start += SEND_DOCUMENTS) queue = request(written.slice(start, start + SEND_DOCUMENTS), [queue]);
      return queue;
    },
    /**
     * The replication's question to the server "which of these revisions do you lack?", asked once what is being sent
     * at once has been answered, and not about a revision the server is known to hold: asked alongside, it was told
     * the server lacked what was on its way, read each such document from the mirror and sent it a second time.
     */
    afterSends(revsDiff: RevsDiff): RevsDiff {
      return async (request, ...rest) => {
        await sent();
        const others = Object.fromEntries(Object.entries(request).filter(([id, revs]) => !(revs.length === 1 && onServer.get(id) === revs[0])));
        return Object.keys(others).length === 0 ? {} : revsDiff(others, ...rest);
      };
    },
  };
}

/** One request: the revisions of `written` the server can place, remembered as held (and `heard`) once it took them. */
async function sendPart(remote: Database<EncryptedDocument>, written: Written[], onServer: RecentRevisions, heard: (id: string, rev: string) => void): Promise<void> {
  const placed = written.flatMap((entry) => {
    const revisions = historyOf(entry, entry.parent !== undefined && onServer.get(entry.document._id) === entry.parent);
    return revisions ? [{ ...entry.document, _rev: entry.rev, _revisions: revisions }] : [];
  });
  if (placed.length === 0) return;
  const results = await remote.bulkDocs(placed as EncryptedDocument[], { new_edits: false }).catch(() => undefined);
  if (!results) return;
  // With new_edits false, CouchDB answers only the documents it could not write.
  const failed = new Set(results.flatMap((result) => ('error' in result && result.error && result.id ? [result.id] : [])));
  for (const document of placed) {
    if (failed.has(document._id)) continue;
    onServer.set(document._id, document._rev);
    heard(document._id, document._rev);
  }
}

/** The revision history sent with a revision: its own hash, and its parent's when the server holds that parent. */
function historyOf({ rev, parent }: Written, parentOnServer: boolean): { start: number; ids: string[] } | undefined {
  const [generation, hash] = splitRev(rev);
  if (parent === undefined) return generation === 1 ? { start: 1, ids: [hash] } : undefined;
  if (!parentOnServer) return undefined;
  const [parentGeneration, parentHash] = splitRev(parent);
  return parentGeneration === generation - 1 ? { start: generation, ids: [hash, parentHash] } : undefined;
}

function splitRev(rev: string): [number, string] {
  const dash = rev.indexOf('-');
  return [Number(rev.slice(0, dash)), rev.slice(dash + 1)];
}
