import type { EncryptedDocument, Mirror } from '../mirror/mirror';

/** How long chunks are taken from the server after the last one came (then the live replication brings the rest). */
const TAKE_IDLE_MS = 30_000;

/**
 * Chunk documents taken from the server itself as they are there (mirror.ts `takeFromServer`), rather than when the live
 * replication gets round to them (attachment-sync.ts): each handed on once, as it comes. A taking ends when all came,
 * when it is cancelled, or `TAKE_IDLE_MS` after the last document (a sender closed midway). Each holds a request open (a
 * `_changes` longpoll), and a browser opens at most six connections to one server, which the live replication needs
 * too: at most `most` run at once, and what is not taken comes with the replication.
 */
export class FileTakes {
  /** Documents taken: handed on by the mirror later, they are not opened again (`wasTaken`). */
  private readonly taken = new Set<string>();
  private readonly running = new Set<{ cancel(): void }>();

  constructor(
    private readonly mirror: Pick<Mirror, 'takeFromServer'>,
    private readonly onDocument: (document: EncryptedDocument) => void,
    private readonly most: number,
  ) {}

  /** Whether the mirror hands on a document taken before (forgotten then: it comes once more at most). */
  wasTaken(id: string): boolean {
    return this.taken.delete(id);
  }

  /** Takes `ids` as they are there; undefined (nothing started) when `most` takings run already. `onEnd` hears it end. */
  take(ids: string[], onEnd: () => void = () => undefined): { cancel(): void } | undefined {
    if (this.running.size >= this.most || ids.length === 0) return undefined;
    let inner: { cancel(): void } | undefined;
    let idle: ReturnType<typeof setTimeout> | undefined;
    let left = ids.length;
    const end = (cancel: boolean) => {
      clearTimeout(idle);
      if (!this.running.delete(taking)) return;
      if (cancel) inner?.cancel();
      onEnd();
    };
    const taking = { cancel: () => end(true) };
    const waitMore = () => {
      clearTimeout(idle);
      idle = setTimeout(taking.cancel, TAKE_IDLE_MS);
    };
    this.running.add(taking);
    waitMore();
    inner = this.mirror.takeFromServer(ids, (documents) => {
      for (const document of documents) this.taken.add(document._id);
      left -= documents.length;
      if (left > 0) waitMore();
      else end(false); // all came: the taking's feed has ended itself
      for (const document of documents) this.onDocument(document);
    });
    return taking;
  }

  stop(): void {
    for (const taking of [...this.running]) taking.cancel();
  }
}
