import type { AppEvent } from '../../schema/events';
import type { CommandHandle } from '../command-handler';
import type { McpServers } from '../mcp/lazy-mcp-hub';
import type { RunManager } from '../runs/run-manager';
import type { SettingsStore } from '../settings/settings-store';
import type { StoredConfig } from '../settings/stored-config';
import type { IndexedDbConversationStore } from '../store/conversation-store';
import type { ParleyDatabase } from '../store/database';
import { inTransaction } from '../store/transaction';
import type { SyncedSettingsHost } from './content/synced-settings';
import type { SyncEngineHost } from './engine-context';

// Sync's view of the host (host.ts): the records, runs and settings the engine works on, as the engine names them.

/** What of the host's surroundings (HostEnvironment in host.ts) sync's view uses. */
interface SyncHostEnvironment {
  database: ParleyDatabase;
  post(event: AppEvent): void;
  now(): number;
}

/** What the sync engine needs of this host: its records, its runs, and the dispatcher for other devices' proposals. */
export function syncEngineHost(environment: SyncHostEnvironment, store: IndexedDbConversationStore, runs: RunManager, handle: CommandHandle, settings: SyncedSettingsHost): SyncEngineHost {
  return {
    settings,
    getConversation: (id) => store.getConversation(id),
    getMessages: (ids) => store.getMessages(ids),
    listConversations: () => store.listConversations(),
    allMessages: (id) => store.allMessages(id),
    applyRemote: (change) => store.applyRemote(change),
    updateConversation: (id, update) => store.updateConversation(id, update).then(() => undefined),
    async deleteLocal(conversationId) {
      runs.stop(conversationId);
      if (await store.getConversation(conversationId)) await store.deleteConversation(conversationId);
    },
    applyProposal: oneAtATime((proposal) => handle.applyProposal(proposal)),
    runnerLost: (conversationId) => void runs.stop(conversationId),
    takenOver: (conversationId) => store.repairTakeOver(conversationId),
    runnersChanged: (runners) => environment.post({ type: 'sync-runners', runners }),
    readAttachment: (attachmentId) => store.readAttachment(attachmentId),
    async storeAttachment(record) {
      // A full disk is `storage_full`, so a read of the file says so rather than "still syncing".
      await inTransaction(environment.database, ['attachments'], (transaction) => transaction.objectStore('attachments').put(record));
      environment.post({ type: 'attachment-arrived', attachmentId: record.id, blob: record.blob });
    },
    couldNotStore: (attachmentId) => environment.post({ type: 'attachment-arrived', attachmentId }),
    now: environment.now,
  };
}

/**
 * `apply` called one call after the other in this worker. Not a Web Lock shared with the other tabs: a proposal heard
 * by two tabs of this device is applied once without one, since its nonce is claimed in IndexedDB (in its
 * compare-and-set's transaction, or in one just before its handler: docs/architecture.md, "Sync's authority rule"),
 * and the tab that comes second is told it was replayed, as it was after waiting on the lock. Asking the browser for
 * that lock cost every remote answer a round trip to it (3–19 ms under load, measured with bench/sync.mjs's trace).
 */
export function oneAtATime<T, R>(apply: (value: T) => Promise<R>): (value: T) => Promise<R> {
  let last: Promise<unknown> = Promise.resolve();
  return (value) => {
    const result = last.then(() => apply(value));
    last = result.catch(() => undefined);
    return result;
  };
}

/** What settings sync needs of this host: the stored settings, their stores, and telling the page what another device changed. */
export function syncedSettingsHost(config: StoredConfig, settings: SettingsStore, mcp: McpServers, emit: (event: AppEvent) => void): SyncedSettingsHost {
  return {
    config,
    settings,
    mcp,
    async profilesChanged() {
      // A deleted profile may have been the default: the settings say which is now.
      emit({ type: 'profiles-changed', profiles: await settings.listProfiles() });
      emit({ type: 'settings-changed', settings: await settings.getSettings() });
    },
  };
}
