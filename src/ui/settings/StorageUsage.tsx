import { createEffect, createSignal, For, on, Show } from 'solid-js';
import type { ConversationSize, ConversationSizes } from '../../schema/protocol';
import { useApp } from '../state/app-context';
import { settle } from '../common/error-report';
import { plural, t } from '../i18n/i18n';
import { shownTitle } from '../chat/conversation-title';
import { ConfirmDialog } from '../common/ConfirmDialog';

/** How many of the largest conversations are listed. */
const LARGEST_LISTED = 10;

/**
 * "What to delete": what the conversations take (counted by the worker, a batch of messages at a time), what the
 * in-browser models take (the sizes of their files), and the largest conversations, each
 * with a Delete button that asks first.
 */
export function StorageUsage() {
  const app = useApp();
  const [sizes, setSizes] = createSignal<ConversationSizes>();
  const [modelBytes, setModelBytes] = createSignal<number>();
  const [deleting, setDeleting] = createSignal<ConversationSize>();
  const [deleted, setDeleted] = createSignal<string>();

  // One measurement at a time: a change while one runs asks for one more after it, not for a second walk beside it.
  let running: Promise<void> | undefined;
  let again = false;
  function refresh(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = measure().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        void refresh();
      }
    });
    return running;
  }

  async function measure() {
    const result = await settle(app.client.send({ type: 'storage.conversationSizes', limit: LARGEST_LISTED }));
    if (result) setSizes(result);
    // The models' own files, summed by the worker: the browser's estimate for the file system counts its own overhead
    // too (about a kilobyte with no model at all) and lags behind a deletion.
    const models = await settle(app.client.send({ type: 'localModel.storedBytes' }));
    setModelBytes(models?.bytes || undefined);
  }
  // Read again whenever conversations come or go (an import, a deletion here or in another tab).
  createEffect(on(() => app.state.conversationOrder?.length, () => void refresh()));

  async function confirmDelete() {
    const target = deleting();
    setDeleting(undefined);
    if (!target) return;
    const done = await settle(app.client.send({ type: 'conversation.delete', conversationId: target.conversationId }));
    if (done) setDeleted(t('space.deleted', { title: shownTitle(target.title) }));
    await refresh();
  }

  return (
    <div class="storage-usage">
      <Show when={sizes()}>
        {(known) => (
          <p>
            {t(known().conversations === 1 ? 'space.totalOne' : 'space.totalMany', { size: formatBytes(known().totalBytes), count: known().conversations })}
            <Show when={modelBytes()}>{(bytes) => <> {t('space.models', { size: formatBytes(bytes()) })}</>}</Show>
          </p>
        )}
      </Show>
      <Show when={(sizes()?.largest.length ?? 0) > 0}>
        <h3 id="largest-conversations">{t('space.largestHeading')}</h3>
        <ul class="largest-conversations" aria-labelledby="largest-conversations">
          <For each={sizes()!.largest}>
            {(entry) => (
              <li>
                <span class="largest-title">{shownTitle(entry.title)}</span>{' '}
                <span class="largest-size">{t(plural(entry.messages, 'space.entrySizeOne', 'space.entrySize'), { size: formatBytes(entry.bytes), count: entry.messages })}</span>{' '}
                <button type="button" class="button small" aria-label={t('space.delete', { title: shownTitle(entry.title), size: formatBytes(entry.bytes) })} onClick={() => setDeleting(entry)}>
                  {t('dialog.delete')}
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <Show when={deleted()}>
        <p role="status">{deleted()}</p>
      </Show>
      <Show when={deleting()}>
        {(target) => (
          <ConfirmDialog
            title={t('chat.deleteTitle')}
            body={t('chat.deleteBody', { title: shownTitle(target().title) })}
            confirmLabel={t('dialog.delete')}
            onConfirm={() => void confirmDelete()}
            onCancel={() => setDeleting(undefined)}
          />
        )}
      </Show>
    </div>
  );
}

/** "340 KB", "2.5 MB": decimal units, as the browser's own storage figures. */
export function formatBytes(bytes: number): string {
  if (bytes < 1_000_000) return `${Math.max(1, Math.round(bytes / 1000)).toLocaleString()} KB`;
  return `${(bytes / 1_000_000).toLocaleString(undefined, { maximumFractionDigits: bytes < 10_000_000 ? 1 : 0 })} MB`;
}
