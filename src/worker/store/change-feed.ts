import type { Conversation, Message } from '../../schema/records';

/**
 * What one committed IndexedDB transaction changed (docs/architecture.md, "The change feed"): records written (new or
 * replaced: IndexedDB's put does not say which, and every subscriber treats both alike), conversations removed with
 * their messages, or many conversations at once (an import: subscribers re-read rather than take each).
 */
export interface RecordDiff {
  conversation?: Conversation;
  messages?: Message[];
  removed?: string[];
  /** Message versions deleted, their conversation staying (`message.deleteVersion`): ids alone, nothing to show. */
  removedMessages?: string[];
  imported?: Conversation[];
}

/**
 * A diff as the feed hands it out. `source`: `local` when this worker committed it (a command, a run, a record sync
 * received), `remote` when another tab's worker did and this one re-read it from a hint. `scope`: `document` for what
 * is stored; `tab` for what only this tab's page shows and nothing stores (a streaming reply between its writes).
 */
export interface Change extends RecordDiff {
  source: 'local' | 'remote';
  scope: 'document' | 'tab';
}

export type ChangeListener = (change: Change) => void;

/**
 * The one place committed changes are announced. Search, sync, the page's events, other tabs' hints and the waiters of
 * a live run each listen; nothing that writes knows who does. A listener that throws does not keep the others from
 * hearing the change.
 */
export class ChangeFeed {
  private readonly listeners = new Set<ChangeListener>();

  /** `onError`: what a listener threw (the console's by default: a bug to see, not a reason to lose the change). */
  constructor(private readonly onError: (error: unknown) => void = (error) => console.error(error)) {}

  listen(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(change: Change): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
