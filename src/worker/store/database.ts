import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { Conversation, Message, Profile } from '../../schema/records';
import type { StoredAttachment } from '../../schema/attachments/attachments';
import type { upgradeBlocks } from '../../schema/messages/upgrade-blocks';

// ─── Store and index names are persisted in users' browsers: do not change them without a migration. ───
const DATABASE_NAME = 'parley';
export const DATABASE_VERSION = 6;
/** Settings keys of the proposals this device applied as a runner, one per nonce (version 6; sync/documents/applied-proposals.ts). */
export const APPLIED_PROPOSAL_PREFIX = 'sync-applied-proposal:';

/** The one typed schema of Parley's IndexedDB database. */
export interface ParleyDatabaseSchema extends DBSchema {
  conversations: {
    key: string;
    value: Conversation;
    indexes: { 'by-updated': number; 'by-run-state': string };
  };
  messages: {
    key: string;
    value: Message;
    /**
     * `by-pending-request` lists every message holding a request for the user (question, approval, elicitation): the
     * inbox and the badge. (Version 1 had `by-pending-question`, for questions only.)
     */
    indexes: { 'by-conversation': [string, number]; 'by-pending-request': string };
  };
  settings: { key: string; value: unknown };
  profiles: { key: string; value: Profile };
  /**
   * The bytes of files sent with messages, as Blobs (the browser keeps large ones as files, outside the records), one
   * per AttachmentMeta of a message. Indexed by message and by conversation, so deleting either deletes its files.
   */
  attachments: {
    key: string;
    value: StoredAttachment;
    indexes: { 'by-message': string; 'by-conversation': string };
  };
}

export type ParleyDatabase = IDBPDatabase<ParleyDatabaseSchema>;

type UpgradeTransaction = IDBPTransaction<ParleyDatabaseSchema, StoreNames<ParleyDatabaseSchema>[], 'versionchange'>;
type Migration = (database: IDBPDatabase<ParleyDatabaseSchema>, transaction: UpgradeTransaction) => Promise<void> | void;

/**
 * Migration 5's rewrite of a message's blocks, loaded only for an upgrade that has messages to rewrite (a new database
 * has none): the first screen of every start does not carry it. The upgrade transaction cannot wait for a script, so an
 * upgrade that meets a message without it is aborted, and the database opened again once it has loaded.
 */
let upgradeBlocksCode: typeof upgradeBlocks | undefined;

/** Migration 5 met a message before `upgradeBlocksCode` had loaded: its upgrade is aborted and tried again. */
class UpgradeCodeNeeded extends Error {}

/** Migration n takes a database at version n-1 to version n. Each runs inside the upgrade transaction. */
const MIGRATIONS: Record<number, Migration> = {
  1(database) {
    const conversations = database.createObjectStore('conversations', { keyPath: 'id' });
    conversations.createIndex('by-updated', 'updatedAt');
    conversations.createIndex('by-run-state', 'runState');
    const messages = database.createObjectStore('messages', { keyPath: 'id' });
    messages.createIndex('by-conversation', ['conversationId', 'seq'], { unique: true });
    // Written as version 1 had it; version 2 replaces it. (The cast: the typed schema only knows today's indexes.)
    (messages as unknown as IDBObjectStore).createIndex('by-pending-question', 'pendingQuestionId');
    database.createObjectStore('settings');
    database.createObjectStore('profiles', { keyPath: 'id' });
  },
  /**
   * One index for every kind of request for the user. Questions pending before the upgrade move to the new field in
   * the same upgrade transaction, so they stay listed and answerable.
   */
  async 2(_database, transaction) {
    const messages = transaction.objectStore('messages');
    messages.createIndex('by-pending-request', 'pendingRequestId');
    // The typed schema knows only today's indexes; version 1's is reached by name.
    const legacy = (messages as unknown as { index(name: string): { getAllKeys(): Promise<IDBValidKey[]> } }).index('by-pending-question');
    for (const key of await legacy.getAllKeys()) {
      const message = await messages.get(key as string);
      if (!message) continue;
      const { pendingQuestionId, ...rest } = message;
      await messages.put(pendingQuestionId ? { ...rest, pendingRequestId: pendingQuestionId } : rest);
    }
    (messages as unknown as { deleteIndex(name: string): void }).deleteIndex('by-pending-question');
  },
  /**
   * Branches: a message's `seq` is its position on its path, and the versions of one message share it, so
   * `by-conversation` is no longer unique. Rebuilt from the stored messages in the upgrade transaction; none changes.
   */
  3(_database, transaction) {
    const messages = transaction.objectStore('messages');
    messages.deleteIndex('by-conversation');
    messages.createIndex('by-conversation', ['conversationId', 'seq'], { unique: false });
  },
  /** Files sent with messages: a new store; no stored record changes (messages without files have none). */
  4(database) {
    const attachments = database.createObjectStore('attachments', { keyPath: 'id' });
    attachments.createIndex('by-message', 'messageId');
    attachments.createIndex('by-conversation', 'conversationId');
  },
  /**
   * One request shape (docs/architecture.md, "Requests"): every stored message's question, approval and form blocks
   * are rewritten by `upgradeBlocks`, in the upgrade transaction, so none is left in the old shape. Their ids, and so
   * the pending-request index, do not change.
   */
  async 5(_database, transaction) {
    let cursor = await transaction.objectStore('messages').openCursor();
    const upgrade = upgradeBlocksCode;
    if (cursor && !upgrade) throw new UpgradeCodeNeeded();
    while (cursor && upgrade) {
      const upgraded = upgrade(cursor.value);
      if (upgraded !== cursor.value) await cursor.update(upgraded);
      cursor = await cursor.continue();
    }
  },
  /**
   * The nonces of applied proposals: one settings record per nonce (`{ at }`), instead of one array of up to 10,000 that
   * every claim read and wrote whole. Their order is kept, all older than any claim made since (`at` below zero).
   */
  async 6(_database, transaction) {
    const settings = transaction.objectStore('settings');
    const legacyKey = 'sync-applied-proposals'; // version 5's record, written as it had it
    const legacy = (await settings.get(legacyKey)) as { nonces?: unknown } | undefined;
    if (legacy === undefined) return;
    const nonces = Array.isArray(legacy.nonces) ? legacy.nonces.filter((entry): entry is string => typeof entry === 'string') : [];
    await Promise.all(nonces.map((nonce, index) => settings.put({ at: index - nonces.length }, `${APPLIED_PROPOSAL_PREFIX}${nonce}`)));
    await settings.delete(legacyKey);
  },
};

interface OpenOptions {
  /**
   * Another tab opened a newer version of the database: this connection has been closed so the upgrade can go on, and
   * this tab's code is out of date. Called once.
   */
  onOutdated?(): void;
}

/** Opens (and migrates) the database. Only the worker calls this. */
export async function openParleyDatabase(name = DATABASE_NAME, version = DATABASE_VERSION, options: OpenOptions = {}): Promise<ParleyDatabase> {
  const attempt = { codeNeeded: false };
  try {
    return await openOnce(name, version, options, attempt);
  } catch (error) {
    if (!attempt.codeNeeded) throw error;
    upgradeBlocksCode = (await import('../../schema/messages/upgrade-blocks')).upgradeBlocks;
    return openOnce(name, version, options, attempt);
  }
}

function openOnce(name: string, version: number, options: OpenOptions, attempt: { codeNeeded: boolean }): Promise<ParleyDatabase> {
  return openDB<ParleyDatabaseSchema>(name, version, {
    async upgrade(database, oldVersion, newVersion, transaction) {
      // Migrations run in order inside the one upgrade transaction; they await only its requests.
      try {
        for (let step = oldVersion + 1; step <= (newVersion ?? version); step += 1) {
          const migration = MIGRATIONS[step];
          if (!migration) throw new Error(`No migration to database version ${step}`);
          await migration(database, transaction);
        }
      } catch (error) {
        if (!(error instanceof UpgradeCodeNeeded)) throw error;
        // Nothing of this upgrade is kept: the database opens again, from the version it had, once the code is here.
        attempt.codeNeeded = true;
        transaction.done.catch(() => undefined); // its AbortError is the open's, handled above
        transaction.abort();
      }
    },
    blocking(_currentVersion, _blockedVersion, event) {
      // A newer version of the app (another tab) wants to upgrade: step aside so it can, and say this tab is stale.
      (event.target as IDBDatabase).close();
      options.onOutdated?.();
    },
  });
}

/** The database on disk is newer than this code (a newer Parley upgraded it in another tab). */
export function isNewerDatabaseError(error: unknown): boolean {
  return (error as { name?: string } | null)?.name === 'VersionError';
}
