import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PouchMirror } from '../../src/worker/sync/mirror/pouch-mirror';
import { inspectServer, judgeServer, setServerUpAgain } from '../../src/worker/sync/server/server-identity';
import { ServerWatch, type WatchPort } from '../../src/worker/sync/server/server-watch';
import { KEY_DOC_ID, newKeyDocument, openKeyDocument, type KeyDocument } from '../../src/worker/sync/documents/sync-crypto';
import { basicAuthorization, startCouchServer, type CouchServer } from '../server/couch-server';

// README, "Sync between your devices": a server that lost its data is noticed. Each detection from a reading, then the
// same against a real CouchDB-protocol server (pouchdb-server) whose database is deleted, emptied and set up again.

const PASSPHRASE = 'correct horse battery staple';

describe('what a syncing device finds on its server', { timeout: 60_000 }, () => {
  let mine: KeyDocument;
  let another: KeyDocument;
  beforeAll(async () => {
    mine = (await newKeyDocument(PASSPHRASE, 100_000)).document;
    // The same passphrase, another salt: what a new device makes on a server that lost its data.
    another = (await newKeyDocument(PASSPHRASE, 100_000)).document;
  });

  it('tells each case apart from what the server answered', () => {
    expect(judgeServer({ databaseStatus: 200, keyDocument: { ...mine, _rev: '3-abc' } }, mine)).toEqual({ kind: 'same' });
    expect(judgeServer({ databaseStatus: undefined }, mine)).toEqual({ kind: 'unreachable' });
    expect(judgeServer({ databaseStatus: 503 }, mine)).toEqual({ kind: 'unreachable' });
    expect(judgeServer({ databaseStatus: 401 }, mine)).toEqual({ kind: 'unauthorized' });
    expect(judgeServer({ databaseStatus: 404 }, mine)).toEqual({ kind: 'database_missing' });
    expect(judgeServer({ databaseStatus: 200, documentCount: 0 }, mine)).toEqual({ kind: 'emptied' });
    expect(judgeServer({ databaseStatus: 200, documentCount: 12 }, mine)).toEqual({ kind: 'key_missing' });
    expect(judgeServer({ databaseStatus: 200, keyDocument: { _id: KEY_DOC_ID, hello: 'world' } }, mine)).toEqual({ kind: 'not_parley' });
    const replaced = judgeServer({ databaseStatus: 200, keyDocument: { ...another, _rev: '1-def' } }, mine);
    expect(replaced).toEqual({ kind: 'replaced', document: another });
  });

  describe('against pouchdb-server', () => {
    let couch: CouchServer;
    let database: string;
    let access: { url: string; username: string; password: string };
    const put = (url: string, body?: unknown) => fetch(url, { method: 'PUT', headers: { authorization: basicAuthorization(couch.username, couch.password), 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    beforeAll(async () => {
      couch = await startCouchServer();
      database = await couch.createDatabase();
      access = { url: database, username: couch.username, password: couch.password };
    });
    afterAll(() => couch?.stop());

    it('finds its own key document, a database gone, one set up again, and one emptied', async () => {
      expect((await put(`${database}/${KEY_DOC_ID}`, mine)).ok).toBe(true);
      expect((await put(`${database}/p0001`, { e: 1, iv: 'aa', ct: 'bb' })).ok).toBe(true);
      expect(await inspectServer(access, mine)).toEqual({ kind: 'same' });

      await couch.deleteDocument(database, KEY_DOC_ID);
      expect(await inspectServer(access, mine)).toEqual({ kind: 'key_missing' });

      // The database deleted by hand (or a server restarted without its data): gone, though the server answers.
      await fetch(database, { method: 'DELETE', headers: { authorization: basicAuthorization(couch.username, couch.password) } });
      expect(await inspectServer(access, mine)).toEqual({ kind: 'database_missing' });
      expect(await inspectServer({ ...access, url: 'http://127.0.0.1:9/parley' }, mine)).toEqual({ kind: 'unreachable' });

      // Set up again by this device: the database made, its own key document (the same salt) written.
      expect(await setServerUpAgain(access, mine)).toBe('ok');
      expect(await inspectServer(access, mine)).toEqual({ kind: 'same' });
      // Another device got there first with the same key document: nothing is overwritten.
      expect(await setServerUpAgain(access, mine)).toBe('taken');

      await couch.deleteDocument(database, KEY_DOC_ID);
      expect(await inspectServer(access, mine)).toEqual({ kind: 'emptied' });
    });

    /** A watch over a mirror that only records what it is asked to do, and what the watch says. */
    function watching(url: string) {
      const said: Array<Parameters<WatchPort['say']>[0] | { keyDocument: unknown }> = [];
      const done = { replicated: 0, uploaded: 0 };
      const mirror = { stopReplication: () => undefined, uploadAll: async () => void (done.uploaded += 1) } as unknown as PouchMirror;
      const port: WatchPort = { replicate: () => void (done.replicated += 1), say: (next) => void said.push(next), keyDocumentIs: (keyDocument) => void said.push({ keyDocument }) };
      const watch = new ServerWatch({ ...access, url }, mine, mirror, port);
      return { watch, said, done };
    }

    it('sets a lost database up again with its own key and uploads everything before replicating; one it cannot make is said, never "Offline"', async () => {
      const url = await couch.createDatabase();
      await fetch(url, { method: 'DELETE', headers: { authorization: basicAuthorization(couch.username, couch.password) } });
      const { watch, said, done } = watching(url);
      await watch.lookAtServer();
      expect(await inspectServer({ ...access, url }, mine)).toEqual({ kind: 'same' });
      expect(done).toEqual({ replicated: 1, uploaded: 1 });
      expect(said).toContainEqual({ keyDocument: 'restored' });
      watch.stop();

      // A server where the database is gone and this user may not make databases (as CouchDB answers a non-admin).
      const server = createServer((request, response) => {
        response.writeHead(request.method === 'PUT' ? 403 : 404, { 'content-type': 'application/json' });
        response.end(JSON.stringify(request.method === 'PUT' ? { error: 'forbidden' } : { error: 'not_found', reason: 'Database does not exist.' }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const refused = watching(`http://127.0.0.1:${(server.address() as AddressInfo).port}/parley`);
      try {
        await refused.watch.lookAtServer();
      } finally {
        refused.watch.stop();
        server.close();
      }
      expect(refused.said).toContainEqual({ state: 'error', reason: 'database_missing' });
      expect(refused.said).not.toContainEqual({ state: 'offline' });
      expect(refused.done).toEqual({ replicated: 0, uploaded: 0 });
    });

    it('replicates at once after a join that looked at the server just now, without looking again', async () => {
      // No server answers here: a look would find it unreachable and never replicate.
      const { watch, said, done } = watching('http://127.0.0.1:9/parley');
      watch.joined();
      expect(done).toEqual({ replicated: 1, uploaded: 0 });
      expect(said).toEqual([{ keyDocument: undefined }]);
      expect(watch.replicating).toBe(true);
      watch.stop();
    });

    it('does not replicate with a server under another key, and says so', async () => {
      const url = await couch.createDatabase();
      expect((await put(`${url}/${KEY_DOC_ID}`, another)).ok).toBe(true);
      const { watch, said, done } = watching(url);
      await watch.lookAtServer();
      watch.stop();
      expect(said).toEqual([{ keyDocument: 'replaced' }, { state: 'error', reason: 'key_replaced' }]);
      expect(done).toEqual({ replicated: 0, uploaded: 0 });
    });

    it('finds a key document with another salt, which the passphrase opens and another passphrase does not', async () => {
      const url = await couch.createDatabase();
      expect((await put(`${url}/${KEY_DOC_ID}`, another)).ok).toBe(true);
      const found = await inspectServer({ ...access, url }, mine);
      expect(found.kind).toBe('replaced');
      const document = (found as { document: KeyDocument }).document;
      expect(await openKeyDocument(document, 'not the passphrase')).toBeUndefined();
      expect(await openKeyDocument(document, PASSPHRASE)).toBeDefined();
    });
  });
});
