import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Conversation, Message, Profile } from '../schema/records';

// ─── Store and index names are persisted in users' browsers: do not change them without a migration. ───
export const DATABASE_NAME = 'parley';
export const DATABASE_VERSION = 1;

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
    /** `by-pending-question` lists every message holding a pending question: the inbox and the badge. */
    indexes: { 'by-conversation': [string, number]; 'by-pending-question': string };
  };
  settings: { key: string; value: unknown };
  profiles: { key: string; value: Profile };
}

export type ParleyDatabase = IDBPDatabase<ParleyDatabaseSchema>;

type Migration = (database: IDBPDatabase<ParleyDatabaseSchema>) => void;

/** Migration n takes a database at version n-1 to version n. Each runs inside the upgrade transaction. */
export const MIGRATIONS: Record<number, Migration> = {
  1(database) {
    const conversations = database.createObjectStore('conversations', { keyPath: 'id' });
    conversations.createIndex('by-updated', 'updatedAt');
    conversations.createIndex('by-run-state', 'runState');
    const messages = database.createObjectStore('messages', { keyPath: 'id' });
    messages.createIndex('by-conversation', ['conversationId', 'seq'], { unique: true });
    messages.createIndex('by-pending-question', 'pendingQuestionId');
    database.createObjectStore('settings');
    database.createObjectStore('profiles', { keyPath: 'id' });
  },
};

export interface OpenOptions {
  /**
   * Another tab opened a newer version of the database: this connection has been closed so the upgrade can go on, and
   * this tab's code is out of date. Called once.
   */
  onOutdated?(): void;
}

/** Opens (and migrates) the database. Only the worker calls this. */
export function openParleyDatabase(name = DATABASE_NAME, version = DATABASE_VERSION, options: OpenOptions = {}): Promise<ParleyDatabase> {
  return openDB<ParleyDatabaseSchema>(name, version, {
    upgrade(database, oldVersion, newVersion) {
      for (let step = oldVersion + 1; step <= (newVersion ?? version); step += 1) {
        const migration = MIGRATIONS[step];
        if (!migration) throw new Error(`No migration to database version ${step}`);
        migration(database);
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
