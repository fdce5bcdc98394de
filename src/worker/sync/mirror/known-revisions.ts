import type { Database } from 'pouchdb-browser';
import { revisionsHeldFirst } from './bulk-documents';
import type { EncryptedDocument } from './mirror';
import { RecentRevisions, type sendAtOnce } from './send-at-once';
import type { ServerAgreement } from './server-agreement';
import { Landing } from './server-documents';

// The replication's two questions about revisions (which the mirror lacks of what it pulls, which the server lacks of
// what it pushes), answered from what this device knows before either database is read (docs/architecture.md, "Sync").

/**
 * The revisions the mirror holds (written here, stored as heard, moved by the replication either way) and those the
 * server holds, and the replication's two questions answered from them: PouchDB's replicate asks the mirror which
 * revisions it lacks of what it pulls, and the server of what it pushes (the instances' revsDiff).
 */
export function knownRevisions(local: Database<EncryptedDocument>, remote: Database<EncryptedDocument>, atOnce: ReturnType<typeof sendAtOnce>, agreement: ServerAgreement) {
  const held = new RecentRevisions();
  local.revsDiff = revisionsHeldFirst(local, local.revsDiff.bind(local), (id, rev) => held.get(id) === rev);
  remote.revsDiff = atOnce.afterSends(remote.revsDiff.bind(remote));
  return {
    /** Written to the mirror by this device (on its way to the server, unless the server answered already). */
    written(id: string, rev: string) {
      held.set(id, rev);
      if (!atOnce.holds(id, rev)) agreement.written(id, rev);
    },
    /** Whether the mirror is known to hold a revision of `id` (written, stored or moved since it opened). */
    holds: (id: string) => held.get(id) !== undefined,
    /** Whether the mirror is known to hold `rev` of `id`. */
    holdsRevision: (id: string, rev: string) => held.get(id) === rev,
    /** A revision said `written` before its write ended, which did not take: the mirror lacks it after all. */
    notWritten(id: string, rev: string) {
      if (held.get(id) === rev) held.delete(id);
      agreement.notWritten(id, rev);
    },
    /** Held on both sides: moved by the replication, or stored as the server gave it. */
    moved(id: string, rev: string) {
      atOnce.held(id, rev);
      held.set(id, rev);
    },
  };
}

/**
 * The replication asks the mirror about what it pulls (PouchDB's replicate calls the instance's revsDiff); about a
 * document being taken from the server (takeFromServer), once it is here.
 */
export function landingFirst(local: Database<EncryptedDocument>): Landing {
  const landing = new Landing();
  const knownFirst = local.revsDiff;
  local.revsDiff = async (request, ...rest) => {
    await landing.before(Object.keys(request));
    return knownFirst(request, ...rest);
  };
  return landing;
}
