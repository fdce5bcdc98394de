// Whether the mirror and the server agree, known from the server's own answers (docs/architecture.md, "Sync"): the
// replication pauses only after writing a checkpoint for every batch it moved, and at the end of an initial upload those
// bookkeeping round trips, not the documents, were what "Synced" waited for.
import type { Database } from 'pouchdb-browser';
import type { EncryptedDocument } from './mirror';

/** A change as the server lists it to the pull: the document and its leaf revisions. */
interface ListedChange {
  id: string;
  changes?: Array<{ rev: string }>;
}

/** What a replication's changes request looks like (PouchDB's replicate): the ids and revisions only, its results kept. */
interface ChangesOptions {
  return_docs?: boolean;
  include_docs?: boolean;
  style?: string;
  live?: boolean;
  continuous?: boolean;
  limit?: number;
}

/**
 * The mirror and the server agree when (1) every revision this device wrote to the mirror is one the server answered it
 * holds, and the replication's push has been through what the mirror held before (or it held nothing when it opened),
 * and (2) the last answer the pull had from the server listed nothing beyond what the mirror holds. Both are what
 * the replication's own pause would say; it says it only after its checkpoints are written on the server.
 */
export class ServerAgreement {
  /** Revisions this device wrote to the mirror that the server has not said it holds. */
  private readonly unsent = new Map<string, string>();
  /** Revisions the server listed to the pull that the mirror is not known to hold. */
  private readonly unheld = new Map<string, string>();
  /** The mirror held nothing when it opened: the push has nothing older than what `unsent` follows. */
  private fresh = false;
  private pushCaughtUp = false;
  /** The pull's last answer from the server was its end (shorter than asked for, or empty before a live feed). */
  private pullAtEnd = false;
  /** Grows with each replication: a cancelled one's feed that answers late is not the pull's news. */
  private round = 0;
  /** Told when what `agreed` says may have changed (see `sayWhenAgreed`). */
  private onChange: () => void = () => undefined;

  constructor(
    /** Whether the mirror holds exactly this revision of a document (written here, or moved by the replication). */
    private readonly mirrorHolds: (id: string, rev: string) => boolean,
  ) {}

  /** The mirror as it opened: `empty` when it held no document (nothing was written to it before). */
  opened(empty: boolean): void {
    this.fresh = empty;
    this.onChange();
  }

  /** A replication starts: what its push and pull have been through starts over. */
  replicationStarted(): void {
    this.round += 1;
    this.pushCaughtUp = this.fresh;
    this.pullAtEnd = false;
    this.unheld.clear();
  }

  /**
   * The server may lack what the mirror holds without this following it (the server lost its data, or a write made
   * outside `written`): agreed again only once the push has been through the mirror.
   */
  lostTrack(): void {
    this.fresh = false;
    this.pushCaughtUp = false;
  }

  /** This device wrote `rev` of `id` to the mirror. */
  written(id: string, rev: string): void {
    this.unsent.set(id, rev);
    this.onChange();
  }

  /** A revision said `written` whose write did not take: nothing of it is on its way. */
  notWritten(id: string, rev: string): void {
    if (this.unsent.get(id) !== rev) return;
    this.unsent.delete(id);
    this.onChange();
  }

  /** The server answered that it holds `rev` of `id`; as it reached the mirror too, the pull need not bring it. */
  onServer(id: string, rev: string): void {
    const before = this.unsent.size + this.unheld.size;
    if (this.unsent.get(id) === rev) this.unsent.delete(id);
    if (this.unheld.get(id) === rev) this.unheld.delete(id);
    if (this.unsent.size + this.unheld.size !== before) this.onChange();
  }

  /** A direction paused without an error: it went through everything it had been handed. */
  paused(direction: 'push' | 'pull'): void {
    if (direction === 'push') this.pushCaughtUp = true;
    else {
      this.pullAtEnd = true;
      this.unheld.clear();
    }
    this.onChange();
  }

  /** Whether the server is known to hold every document of the mirror and to list nothing the mirror lacks. */
  get agreed(): boolean {
    return this.pushCaughtUp && this.unsent.size === 0 && this.pullAtEnd && this.unheld.size === 0;
  }

  /**
   * Says `synced` as soon as the two agree, what was received is applied here and no direction failed, and `syncing`
   * when that stops (a write on its way): the replication's own pause says so only after its checkpoints are written.
   * Returns the check, to run when `applied` or `failing` may have changed; it runs on each change here too.
   */
  sayWhenAgreed({ applied, failing, onState }: { applied: () => boolean; failing: () => boolean; onState: (state: { state: 'synced' } | { state: 'syncing'; done: 0 }) => void }): () => void {
    let said = false;
    const check = () => {
      const agreed = this.agreed && applied() && !failing();
      if (agreed === said) return;
      said = agreed;
      if (agreed) onState({ state: 'synced' });
      else if (!failing()) onState({ state: 'syncing', done: 0 });
    };
    this.onChange = check;
    return check;
  }

  /**
   * Follows the pull's requests to `remote` for changes (told apart from the mirror's other reads of the server by
   * their options: ids and revisions only, results kept): each change listed, and whether an answer was the end.
   */
  observePull(remote: Database<EncryptedDocument>): void {
    const changes = (remote.changes as unknown as (options: ChangesOptions) => PullFeed).bind(remote);
    Object.assign(remote, {
      changes: (options: ChangesOptions) => {
        const feed = changes(options);
        if (!options?.return_docs || options.include_docs || options.style !== 'all_docs') return feed;
        const round = this.round;
        const live = options.live === true || options.continuous === true;
        feed.on('change', (change) => round === this.round && this.listed(change));
        // The end as of the last answer, as the replication's own pause means it: a page shorter than asked for (a
        // live feed follows an empty one, and its `limit` counts over all its answers: ending at it says nothing more).
        void feed.then(
          (result) => {
            if (round !== this.round || live) return;
            const count = result?.results?.length ?? 0;
            this.pullAtEnd = options.limit === undefined || count < options.limit;
            this.onChange();
          },
          () => undefined,
        );
        return feed;
      },
    });
  }

  private listed(change: ListedChange): void {
    for (const { rev } of change.changes ?? []) if (!this.mirrorHolds(change.id, rev)) this.unheld.set(change.id, rev);
    this.onChange();
  }
}

/** A PouchDB changes feed as the replication gets it: events per change, and a promise of its results. */
interface PullFeed extends PromiseLike<{ results?: unknown[] }> {
  on(event: 'change', listener: (change: ListedChange) => void): PullFeed;
}
