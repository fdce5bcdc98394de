import type { Profile } from '../../schema/records';
import type { ParleyDatabase } from '../store/database';
import { inTransaction, type ReadTransaction, type Stores, type Transaction } from '../store/transaction';

// ─── Keys in the `settings` store, persisted in users' browsers: do not change them without a migration. ───
export const SETTINGS_KEY = 'settings';
export const MCP_SERVERS_KEY = 'mcpServers';
/** Bumped in the same transaction as every write of settings, profiles or MCP servers. Absent reads as 0. */
const CONFIG_GENERATION_KEY = 'configGeneration';

/** Settings, profiles and the MCP server list as stored at one moment (one readonly transaction). */
export interface ConfigSnapshot {
  generation: number;
  /** The raw settings record (defaults are applied by SettingsStore). */
  settings: unknown;
  profiles: ReadonlyMap<string, Profile>;
  /** The raw MCP server list (checked by McpServerStore). */
  mcpServers: unknown;
}

/**
 * This worker's copy of what every model step reads (the settings, the conversation's profile, the MCP servers), so a
 * step reads none of it from IndexedDB. Other tabs change these at any time, so the copy is dropped when:
 * - this worker writes them (`invalidate` after the commit);
 * - the run's own conversation transactions (the compare-and-set of an answer, every loop write, the read that starts
 *   a run) see a newer generation than the copy's (`observe`): the generation is bumped in the same transaction as
 *   every config write, so a step always uses config at least as new as its run's last transaction — no older than
 *   re-reading it there would give — with no extra transaction;
 * - a peer hint says another tab changed them (covers a tab still running code that does not bump the generation).
 */
export class StoredConfig {
  private snapshot: ConfigSnapshot | undefined;
  private loading: { promise: Promise<ConfigSnapshot>; seen: number } | undefined;
  /** Bumped by each invalidation: a load that began before it is not kept. */
  private epoch = 0;
  private newestSeen = 0;
  private readonly writeListeners = new Set<() => void>();

  constructor(private readonly database: ParleyDatabase) {}

  read(): Promise<ConfigSnapshot> {
    if (this.snapshot) return Promise.resolve(this.snapshot);
    if (this.loading) return this.loading.promise;
    const epoch = this.epoch;
    const promise = this.load().then(
      (snapshot) => {
        if (this.loading?.promise === promise) this.loading = undefined;
        if (epoch === this.epoch && snapshot.generation >= this.newestSeen) this.snapshot = snapshot;
        return snapshot;
      },
      (error: unknown) => {
        if (this.loading?.promise === promise) this.loading = undefined;
        throw error;
      },
    );
    this.loading = { promise, seen: this.newestSeen };
    return promise;
  }

  /**
   * One write of settings, profiles or MCP servers: `body` in one readwrite transaction (its scope must include
   * `settings`) that also bumps the generation; this worker's copy is dropped once it is over, committed or not.
   */
  async write<T>(stores: Stores, body: (transaction: Transaction) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(this.database, stores, async (transaction) => {
        const result = await body(transaction);
        await bumpConfigGeneration(transaction);
        return result;
      });
    } finally {
      this.invalidate();
      for (const listener of this.writeListeners) listener();
    }
  }

  /** Told after each write of this worker's (committed or not): sync compares what of the settings it sends. */
  onWrite(listener: () => void): void {
    this.writeListeners.add(listener);
  }

  /** Something changed (a write of this worker, committed; a peer's hint): the next read loads again. */
  invalidate(): void {
    this.epoch += 1;
    this.snapshot = undefined;
    this.loading = undefined;
  }

  /** A transaction read the stored generation: drop the copy when it is older. */
  observe(generation: number): void {
    if (generation <= this.newestSeen) return;
    this.newestSeen = generation;
    if (this.snapshot && this.snapshot.generation < generation) this.snapshot = undefined;
    // A load begun before that transaction committed may read the older config: later readers do not share it.
    if (this.loading && this.loading.seen < generation) this.loading = undefined;
  }

  private async load(): Promise<ConfigSnapshot> {
    const transaction = this.database.transaction(['settings', 'profiles'], 'readonly');
    const settingsStore = transaction.objectStore('settings');
    const [generation, settings, mcpServers, profiles] = await Promise.all([
      settingsStore.get(CONFIG_GENERATION_KEY),
      settingsStore.get(SETTINGS_KEY),
      settingsStore.get(MCP_SERVERS_KEY),
      transaction.objectStore('profiles').getAll(),
    ]);
    return { generation: asGeneration(generation), settings, mcpServers, profiles: new Map(profiles.map((profile) => [profile.id, profile])) };
  }
}

/** Reads the raw settings record inside a transaction whose scope includes `settings` (see settingsFrom). */
export function readStoredSettings(transaction: ReadTransaction): Promise<unknown> {
  return transaction.objectStore('settings').get(SETTINGS_KEY);
}

/** Reads the config generation inside a transaction whose scope includes `settings`. */
export async function readConfigGeneration(transaction: ReadTransaction): Promise<number> {
  return asGeneration(await transaction.objectStore('settings').get(CONFIG_GENERATION_KEY));
}

async function bumpConfigGeneration(transaction: Transaction): Promise<void> {
  const store = transaction.objectStore('settings');
  await store.put(asGeneration(await store.get(CONFIG_GENERATION_KEY)) + 1, CONFIG_GENERATION_KEY);
}

function asGeneration(value: unknown): number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : 0;
}
