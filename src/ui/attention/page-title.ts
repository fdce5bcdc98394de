import { createEffect, on, onCleanup, type Accessor } from 'solid-js';
import { t } from '../i18n/i18n';

/**
 * Puts a waiting question into the tab's title ("(1) Waiting for you · Parley") when one arrives
 * while the page is hidden, and restores the plain title when the page is seen again.
 */
export function trackPendingQuestionsInTitle(pendingCount: Accessor<number>): void {
  let showingPending = false;
  const showPlain = () => {
    showingPending = false;
    document.title = t('app.name');
  };
  createEffect(
    on(pendingCount, (count, previous) => {
      if (!document.hidden) return;
      if (count > 0 && (count > (previous ?? 0) || showingPending)) {
        showingPending = true;
        document.title = t('title.pending', { count });
      } else if (count === 0 && showingPending) {
        showPlain();
      }
    }),
  );
  const onVisibilityChange = () => {
    if (!document.hidden && showingPending) showPlain();
  };
  document.addEventListener('visibilitychange', onVisibilityChange);
  onCleanup(() => document.removeEventListener('visibilitychange', onVisibilityChange));
}
