import type { QuestionDraft } from '../../../schema/forms/question';

/** Debounces draft saves: only the latest draft is sent, at most once per quiet period. */
export interface DraftSaver {
  /** Remembers `draft` and (re)starts the quiet period; the previous unsent draft is replaced. */
  schedule(draft: QuestionDraft): void;
  /** Sends the unsent draft now, if any (unmount, page hide). */
  flush(): void;
  /** Drops the unsent draft without sending it; returns whether there was one. */
  cancel(): boolean;
}

/** The form saves on every change; this keeps that to one command per pause in typing. */
export function createDraftSaver(save: (draft: QuestionDraft) => void, delayMs = 400): DraftSaver {
  let unsent: QuestionDraft | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function clearTimer(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  }

  function flush(): void {
    clearTimer();
    if (!unsent) return;
    const draft = unsent;
    unsent = undefined;
    save(draft);
  }

  return {
    schedule(draft) {
      unsent = draft;
      clearTimer();
      timer = setTimeout(flush, delayMs);
    },
    flush,
    cancel() {
      clearTimer();
      const had = unsent !== undefined;
      unsent = undefined;
      return had;
    },
  };
}

/**
 * Flushes the saver when the page goes away or is hidden (a reload does not unmount components, so the last
 * keystrokes would be lost). Returns the function that stops listening.
 */
export function flushWhenPageHides(saver: DraftSaver): () => void {
  const flushOnHide = () => {
    if (document.visibilityState === 'hidden') saver.flush();
  };
  const flush = () => saver.flush();
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', flushOnHide);
  return () => {
    window.removeEventListener('pagehide', flush);
    document.removeEventListener('visibilitychange', flushOnHide);
  };
}
