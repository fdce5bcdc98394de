import { SettingRecord, SYNCED_SETTING_VALUES, type SyncedSettingKind } from '../../../schema/sync/synced-settings';
import type { EngineContext } from '../engine-context';
import type { EncryptedDocument, MirrorChange } from '../mirror/mirror';
import { documentId, open, seal } from '../documents/sync-crypto';
import { SYNCED_SETTINGS } from './synced-settings';

/** Where the versions this device holds are kept beside the mirror (never replicated). */
const VERSIONS_KEY = 'setting-versions';
/** How long settings writes gather before what changed is sealed (a form saves, a permission flips). */
const PUSH_DELAY_MS = 250;
/** A digest no item has: the version here lost to an older one on the server and must be written again. */
const REWRITE = '\u0000rewrite';

/** The version of one item this device holds: who wrote it at which clock, and what it held (null: a tombstone). */
interface Version {
  clock: number;
  writer: string;
  digest: string | null;
}

const KINDS = Object.keys(SYNCED_SETTING_VALUES) as SyncedSettingKind[];

/**
 * Settings that follow the user (docs/architecture.md, "Settings that sync"): each item of each kind in SYNCED_SETTINGS
 * is one sealed document, last writer wins by a Lamport clock, deletions are tombstones. What of this device's settings
 * syncs is compared with the versions it holds after every settings write, so whatever wrote them (a form, a backup's
 * import, a write while sync was off) goes out the same way. A setting document keeps its sealed body under `s`, which
 * builds before settings synced do not read: they pass over it instead of counting it as a document they cannot open.
 */
export class SettingsSync {
  private readonly versions = new Map<string, Version>();
  private queue: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private started = false;

  constructor(private readonly context: EngineContext) {}

  async load(): Promise<void> {
    const stored = await this.context.mirror.getLocal(VERSIONS_KEY);
    if (!stored || typeof stored !== 'object') return;
    for (const [key, version] of Object.entries(stored as Record<string, Version>)) {
      if (typeof version?.clock === 'number' && typeof version.writer === 'string') this.versions.set(key, version);
    }
  }

  /** Once the mirror has been read: from now on this device's settings go out, starting with what changed meanwhile. */
  start(): Promise<void> {
    this.started = true;
    return this.serial(() => this.push());
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** This device's settings were written: what of them syncs goes out shortly. */
  noteLocalChange(): void {
    if (!this.started || this.context.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.serial(() => this.push());
    }, PUSH_DELAY_MS);
  }

  /** Waits for what was noted to be in the mirror. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      void this.serial(() => this.push());
    }
    await this.queue;
  }

  /** The setting documents among what the mirror handed on, applied in order. */
  receive(changes: readonly MirrorChange[]): Promise<void> {
    // This device's own writes, handed back, hold what it has: not opened again.
    const documents = changes.map((change) => change.document).filter((document) => document.s && !document._deleted && !this.context.sealed.wroteIt(document));
    if (documents.length === 0) return Promise.resolve();
    return this.serial(async () => {
      for (const document of documents) {
        if (this.context.stopped) return;
        await this.receiveOne(document);
      }
      await this.save();
    });
  }

  /** One at a time: a push reads the versions a receive writes, and the other way round. */
  private serial(task: () => Promise<void>): Promise<void> {
    const next = this.queue.then(task).catch(() => undefined);
    this.queue = next;
    return next;
  }

  /** Every item whose synced part differs from the version held (new, edited, deleted here) written with the next clock. */
  private async push(): Promise<void> {
    if (this.context.stopped) return;
    const config = await this.context.host.settings.config.read();
    const writes: Array<{ key: string; record: SettingRecord }> = [];
    const me = this.context.book.device.id;
    for (const kind of KINDS) {
      const here = new Map<string, unknown>();
      for (const [id, value] of SYNCED_SETTINGS[kind].local(config)) {
        const parsed = SYNCED_SETTING_VALUES[kind].safeParse(value);
        if (parsed.success) here.set(id, parsed.data);
      }
      for (const [id, value] of here) {
        const known = this.versions.get(keyOf(kind, id));
        if (known?.digest !== digestOf(value)) writes.push({ key: keyOf(kind, id), record: { kind, id, clock: (known?.clock ?? 0) + 1, writer: me, value } });
      }
      for (const [key, known] of this.versions) {
        const id = idIn(key, kind);
        if (id !== undefined && known.digest !== null && !here.has(id)) writes.push({ key, record: { kind, id, clock: known.clock + 1, writer: me } });
      }
    }
    if (writes.length === 0) return;
    const errors = await this.write(writes.map((write) => write.record));
    writes.forEach(({ key, record }, index) => {
      if (!errors[index]) this.versions.set(key, { clock: record.clock, writer: record.writer, digest: record.value === undefined ? null : digestOf(record.value) });
    });
    await this.save();
    if (errors.some(Boolean) && !this.context.stopped) setTimeout(() => this.noteLocalChange(), 2000);
  }

  private async write(records: SettingRecord[]): Promise<Array<Error | undefined>> {
    const { keys, mirror } = this.context;
    const ids = await Promise.all(records.map((record) => documentId(keys, 'setting', record.kind, record.id)));
    const current = await mirror.getMany(ids);
    const documents = await Promise.all(
      records.map(async (record, index): Promise<EncryptedDocument> => {
        const revision = current[index]?._rev;
        return { _id: ids[index]!, ...(revision ? { _rev: revision } : {}), e: 1, s: await seal(keys, JSON.stringify(record)) };
      }),
    );
    return this.context.sealed.own.write(documents, (written) => mirror.putMany(written));
  }

  /**
   * Another device's version of an item: applied here when it is newer than the one held; when older (the server kept
   * another revision than this device's newer one), this device's is written again with a later clock.
   */
  private async receiveOne(document: EncryptedDocument): Promise<void> {
    const record = await this.open(document);
    if (!record) return this.context.refused('unreadable');
    const schema = (SYNCED_SETTING_VALUES as Record<string, (typeof SYNCED_SETTING_VALUES)[SyncedSettingKind]>)[record.kind];
    if (!schema) return; // a kind a later build syncs: left for it
    if (document._id !== (await documentId(this.context.keys, 'setting', record.kind, record.id))) return this.context.refused('misplaced');
    const value = record.value === undefined ? undefined : schema.safeParse(record.value);
    if (value && !value.success) return this.context.refused('unreadable');
    const kind = record.kind as SyncedSettingKind;
    const key = keyOf(kind, record.id);
    const known = this.versions.get(key);
    if (known && !newer(record, known)) {
      if (newer(known, record)) {
        // The next push writes this device's version (or tombstone) again, over the revision the server kept.
        this.versions.set(key, { ...known, digest: REWRITE });
        this.noteLocalChange();
      }
      return;
    }
    await (SYNCED_SETTINGS[kind].apply as (host: unknown, id: string, value: unknown) => Promise<void>)(this.context.host.settings, record.id, value?.data).catch(() => undefined);
    this.versions.set(key, { clock: record.clock, writer: record.writer, digest: value ? digestOf(value.data) : null });
  }

  private async open(document: EncryptedDocument): Promise<SettingRecord | undefined> {
    try {
      const parsed = SettingRecord.safeParse(JSON.parse(await open(this.context.keys, document.s!)));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  private save(): Promise<void> {
    return this.context.mirror.setLocal(VERSIONS_KEY, Object.fromEntries(this.versions));
  }
}

/** Of two versions, whether `a` wins: the higher clock, then the greater writer id (the same answer on every device). */
function newer(a: { clock: number; writer: string }, b: { clock: number; writer: string }): boolean {
  return a.clock > b.clock || (a.clock === b.clock && a.writer > b.writer);
}

function keyOf(kind: SyncedSettingKind, id: string): string {
  return `${kind}\u0000${id}`;
}

function idIn(key: string, kind: SyncedSettingKind): string | undefined {
  return key.startsWith(`${kind}\u0000`) ? key.slice(kind.length + 1) : undefined;
}

/** The same value gives the same text whatever the order of its keys (a record read back from IndexedDB, or parsed). */
function digestOf(value: unknown): string {
  return JSON.stringify(value, (_key, entry: unknown) =>
    entry && typeof entry === 'object' && !Array.isArray(entry) ? Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : 1))) : entry,
  );
}
