import { afterAll, beforeAll } from 'vitest';
import type { PouchMirror } from '../../src/worker/sync/mirror/pouch-database-mirror';
import { startCouchServer, type CouchServer } from '../server/couch-server';

/**
 * A pouchdb-server for one describe block, started before its tests, and the mirrors its tests open (push them to
 * `mirrors`): their live replications are closed before the server stops.
 */
export function couchForMirrors(): { readonly couch: CouchServer; mirrors: PouchMirror[] } {
  let couch: CouchServer | undefined;
  const mirrors: PouchMirror[] = [];
  beforeAll(async () => {
    couch = await startCouchServer();
  });
  afterAll(async () => {
    await Promise.all(mirrors.map((mirror) => mirror.close().catch(() => undefined)));
    await couch?.stop();
  });
  return {
    get couch() {
      if (!couch) throw new Error('couchForMirrors: the server starts in beforeAll');
      return couch;
    },
    mirrors,
  };
}
