import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, stopProcess } from './mcp-processes';

/**
 * A CouchDB-protocol server for the sync tests: `pouchdb-server --in-memory` from node_modules/.bin on a free
 * localhost port, in its own process group, with CORS on (the app runs on another origin and sends `Authorization`, so
 * every request is preflighted) and an admin user (no "admin party": a request without the right Basic credentials is
 * refused, as on a real server). When `COUCHDB_URL` is set, that real CouchDB is used instead (its admin is
 * `COUCHDB_USER` / `COUCHDB_PASSWORD`, and it must already allow the app's origin).
 */

const BIN = resolve(import.meta.dirname, '../../node_modules/.bin');
const START_TIMEOUT_MS = 30_000;

/** The admin of the started pouchdb-server; the browser tests type these into Settings → Sync. */
const ADMIN = { username: 'parley-admin', password: 'correct-couch-password' };

export interface CouchServer {
  /** The server's root, e.g. http://127.0.0.1:41234 (no trailing slash). */
  origin: string;
  username: string;
  password: string;
  /** True when this is pouchdb-server started here; false for a real CouchDB from `COUCHDB_URL`. */
  local: boolean;
  /** Makes a new, empty database only the admin may read or write; resolves with its URL (what Settings → Sync takes). */
  createDatabase(): Promise<string>;
  /** Every document of a database with its body, read with the admin's credentials (what the server holds). */
  allDocuments(databaseUrl: string): Promise<Array<Record<string, unknown>>>;
  /** The database's current update sequence (opaque on CouchDB 2+): pass it to `changedSince`. */
  updateSeq(databaseUrl: string): Promise<string>;
  /** The ids of the documents written since `since` (an `updateSeq`), as `_changes` lists them. */
  changedSince(databaseUrl: string, since: string): Promise<string[]>;
  /** A document's revisions the server still holds the bodies of, newest first (`?revs_info=true`, status "available"). */
  revisions(databaseUrl: string, id: string): Promise<string[]>;
  /**
   * What a hostile server can do: writes the body of an old revision (kept until compaction) back over the document as
   * its newest revision, with the current `_rev`, as any client with write access could. Resolves with the new revision.
   */
  writeBack(databaseUrl: string, id: string, rev: string): Promise<string>;
  /** Deletes one document, as anyone with write access to the database could (or a server that lost it). */
  deleteDocument(databaseUrl: string, id: string): Promise<void>;
  /** How many documents the database holds now (`doc_count`: deleted ones not counted). */
  documentCount(databaseUrl: string): Promise<number>;
  /** Deletes the databases made here (a real CouchDB keeps nothing of a run) and stops a server started here. */
  stop(): Promise<void>;
  /** pouchdb-server started here only: stopped and started again on the same port, holding nothing (it lost its data). */
  restart?(): Promise<void>;
}

export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

export async function startCouchServer(): Promise<CouchServer> {
  const external = process.env.COUCHDB_URL;
  if (external) {
    return couchServer(external.replace(/\/+$/, ''), process.env.COUCHDB_USER ?? 'admin', process.env.COUCHDB_PASSWORD ?? '', false, async () => undefined);
  }
  const port = await freePort();
  let stopServer = await runPouchServer(port);
  const server = couchServer(`http://127.0.0.1:${port}`, ADMIN.username, ADMIN.password, true, () => stopServer());
  return {
    ...server,
    async restart() {
      await stopServer();
      stopServer = await runPouchServer(port);
    },
  };
}

/**
 * Starts `pouchdb-server --in-memory` on `port`, configured (CORS, the admin) in a fresh working directory; resolves with
 * what stops it. Started again on the same port it holds nothing: a server that lost its data.
 */
async function runPouchServer(port: number): Promise<() => Promise<void>> {
  // pouchdb-server writes config.json and log.txt into its working directory: a temp one, removed on stop.
  const directory = mkdtempSync(join(tmpdir(), 'parley-couch-'));
  const child = spawn(join(BIN, 'pouchdb-server'), ['--in-memory', '--port', String(port), '--host', '127.0.0.1'], {
    cwd: directory,
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  const stopServer = async () => {
    await stopProcess(child);
    rmSync(directory, { recursive: true, force: true });
  };
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(origin, () => (child.exitCode !== null || child.signalCode !== null ? `pouchdb-server exited (${child.exitCode ?? child.signalCode})` : undefined));
    // While it is still an "admin party" anyone may configure it: CORS first, then the admin that ends the party.
    const cors: Array<[string, string]> = [
      ['httpd/enable_cors', 'true'],
      ['cors/origins', '*'],
      ['cors/credentials', 'true'],
      ['cors/methods', 'GET, PUT, POST, HEAD, DELETE'],
      ['cors/headers', 'accept, authorization, content-type, origin, referer'],
    ];
    for (const [key, value] of cors) await expectOk(await fetch(`${origin}/_config/${key}`, { method: 'PUT', body: JSON.stringify(value) }), `PUT /_config/${key}`);
    await expectOk(await fetch(`${origin}/_config/admins/${ADMIN.username}`, { method: 'PUT', body: JSON.stringify(ADMIN.password) }), 'PUT /_config/admins');
  } catch (error) {
    await stopServer();
    throw new Error(`${(error as Error).message}${errors ? `\n${errors}` : ''}`);
  }
  return stopServer;
}

function couchServer(origin: string, username: string, password: string, local: boolean, stopServer: () => Promise<void>): CouchServer {
  const authorization = basicAuthorization(username, password);
  const made: string[] = [];
  const authorized = (url: string, init: RequestInit = {}) => fetch(url, { ...init, headers: { authorization, 'content-type': 'application/json', ...init.headers } });
  return {
    origin,
    username,
    password,
    local,
    async createDatabase() {
      // CouchDB database names: lower case, starting with a letter.
      const url = `${origin}/parley-e2e-${randomUUID()}`;
      await expectOk(await authorized(url, { method: 'PUT' }), 'PUT /<database>');
      made.push(url);
      // Admins only, as CouchDB 3 makes every new database; pouchdb-server (CouchDB 1 rules) would let anyone read it.
      await expectOk(await authorized(`${url}/_security`, { method: 'PUT', body: JSON.stringify({ admins: { names: [], roles: [] }, members: { names: [], roles: ['_admin'] } }) }), 'PUT /<database>/_security');
      return url;
    },
    async allDocuments(databaseUrl) {
      const response = await authorized(`${databaseUrl}/_all_docs?include_docs=true&conflicts=true`);
      await expectOk(response, 'GET _all_docs');
      const body = (await response.json()) as { rows: Array<{ doc?: Record<string, unknown> }> };
      return body.rows.flatMap((row) => (row.doc ? [row.doc] : []));
    },
    async updateSeq(databaseUrl) {
      const response = await authorized(databaseUrl);
      await expectOk(response, 'GET /<database>');
      return String(((await response.json()) as { update_seq: string | number }).update_seq);
    },
    async changedSince(databaseUrl, since) {
      const response = await authorized(`${databaseUrl}/_changes?since=${encodeURIComponent(since)}`);
      await expectOk(response, 'GET _changes');
      const body = (await response.json()) as { results: Array<{ id: string }> };
      return [...new Set(body.results.map((row) => row.id))];
    },
    async revisions(databaseUrl, id) {
      const response = await authorized(`${databaseUrl}/${encodeURIComponent(id)}?revs_info=true`);
      await expectOk(response, 'GET /<database>/<id>?revs_info=true');
      const body = (await response.json()) as { _revs_info: Array<{ rev: string; status: string }> };
      return body._revs_info.filter((entry) => entry.status === 'available').map((entry) => entry.rev);
    },
    async writeBack(databaseUrl, id, oldRev) {
      const documentUrl = `${databaseUrl}/${encodeURIComponent(id)}`;
      const old = await authorized(`${documentUrl}?rev=${encodeURIComponent(oldRev)}`);
      await expectOk(old, 'GET /<database>/<id>?rev=<old rev>');
      const current = await authorized(documentUrl);
      await expectOk(current, 'GET /<database>/<id>');
      // Every field of the old body but CouchDB's own (`_id`, `_rev`, `_revisions`…): the sealed `e`, `iv` and `ct`.
      const fields = Object.fromEntries(Object.entries((await old.json()) as Record<string, unknown>).filter(([key]) => !key.startsWith('_')));
      const body = { ...fields, _rev: ((await current.json()) as { _rev: string })._rev };
      const written = await authorized(documentUrl, { method: 'PUT', body: JSON.stringify(body) });
      await expectOk(written, 'PUT /<database>/<id> (an old body, the current _rev)');
      const rev = ((await written.json()) as { rev: string }).rev;
      // The attack took: what a device reads now is the old body, under the new revision.
      const now = await authorized(documentUrl);
      await expectOk(now, 'GET /<database>/<id> after the write-back');
      const { _rev: newest, ...newestFields } = (await now.json()) as Record<string, unknown>;
      delete newestFields._id;
      if (newest !== rev || JSON.stringify(newestFields) !== JSON.stringify(fields)) throw new Error(`writeBack: ${id} is not the old body under ${rev}`);
      return rev;
    },
    async deleteDocument(databaseUrl, id) {
      const documentUrl = `${databaseUrl}/${encodeURIComponent(id)}`;
      const current = await authorized(documentUrl);
      await expectOk(current, 'GET /<database>/<id>');
      const rev = ((await current.json()) as { _rev: string })._rev;
      await expectOk(await authorized(`${documentUrl}?rev=${encodeURIComponent(rev)}`, { method: 'DELETE' }), 'DELETE /<database>/<id>');
    },
    async documentCount(databaseUrl) {
      const response = await authorized(databaseUrl);
      await expectOk(response, 'GET /<database>');
      return ((await response.json()) as { doc_count: number }).doc_count;
    },
    async stop() {
      await Promise.all(made.splice(0).map((url) => authorized(url, { method: 'DELETE' }).catch(() => undefined)));
      await stopServer();
    },
  };
}

async function waitUntilAnswering(origin: string, exited: () => string | undefined): Promise<void> {
  const started = Date.now();
  for (;;) {
    const gone = exited();
    if (gone) throw new Error(gone);
    try {
      const response = await fetch(`${origin}/`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > START_TIMEOUT_MS) throw new Error(`pouchdb-server did not answer on ${origin} within ${START_TIMEOUT_MS} ms`);
    await new Promise((resolveLater) => setTimeout(resolveLater, 100));
  }
}

async function expectOk(response: Response, what: string): Promise<void> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text().catch(() => '')}`);
}
