import type { SyncRefusals } from '../../../schema/sync/sync';
import type { Mirror } from '../mirror/mirror';

export type RefusalKind = 'unreadable' | 'replayed' | 'misplaced';

const LOCAL_KEY = 'refusals';

/**
 * What this device refused from the server, counted by why and kept beside the mirror's position, so the warning in
 * Sync's status outlives a reload (the refused documents are not read again) until the user clears it.
 */
export class RefusalLog {
  private counts: SyncRefusals | undefined;
  private saving = Promise.resolve();

  constructor(
    private readonly mirror: Mirror,
    private readonly now: () => number,
    /** Told after every change, for the status. */
    private readonly onChange: () => void,
  ) {}

  async load(): Promise<void> {
    const stored = (await this.mirror.getLocal(LOCAL_KEY)) as SyncRefusals | undefined;
    if (stored && typeof stored.lastAt === 'number') this.counts = { unreadable: stored.unreadable | 0, replayed: stored.replayed | 0, misplaced: stored.misplaced | 0, lastAt: stored.lastAt };
  }

  note(kind: RefusalKind): void {
    const counts = this.counts ?? { unreadable: 0, replayed: 0, misplaced: 0, lastAt: 0 };
    this.counts = { ...counts, [kind]: counts[kind] + 1, lastAt: this.now() };
    this.save();
  }

  clear(): void {
    this.counts = undefined;
    this.save();
  }

  snapshot(): SyncRefusals | undefined {
    return this.counts && { ...this.counts };
  }

  /** Saved in order; a failed save only costs the warning after a reload. */
  private save(): void {
    const value = this.counts ?? null;
    this.saving = this.saving.then(() => this.mirror.setLocal(LOCAL_KEY, value)).catch(() => undefined);
    this.onChange();
  }
}
