import { createSignal, createUniqueId, For, Show } from 'solid-js';
import type { Conversation } from '../../schema/records';
import { editableTitle } from './conversation-title';
import { useApp } from '../state/app-context';
import { settle } from '../common/error-report';
import { t } from '../i18n/i18n';

/**
 * The chat header's rename form: the title as a field, saved on Enter, left on Esc or Cancel (`onDone`), with the
 * titles other devices gave the conversation to take one back.
 */
export function RenameForm(props: { conversation: Conversation; onDone: () => void }) {
  const app = useApp();
  const [draftTitle, setDraftTitle] = createSignal(editableTitle(props.conversation.title));
  const otherTitlesId = `other-titles-${createUniqueId()}`;
  /**
   * Titles given on other devices that lost a rename conflict (sync keeps them: README, "Sync between your devices"): newest first, each once,
   * offered in the rename form so the user can take one back.
   */
  const otherTitles = () => {
    const entries = [...(props.conversation.otherTitles ?? [])].sort((a, b) => b.at - a.at);
    const titles = entries.map((entry) => entry.title).filter((title) => title.trim() && title !== props.conversation.title);
    return [...new Set(titles)];
  };

  async function saveTitle() {
    const title = draftTitle().trim();
    if (!title || title === props.conversation.title) {
      props.onDone();
      return;
    }
    const conversation = await settle(
      app.client.send({ type: 'conversation.rename', conversationId: props.conversation.id, title }),
    );
    if (conversation) {
      props.onDone();
    }
  }

  return (
    <form
      class="rename-form"
      onSubmit={(event) => {
        event.preventDefault();
        void saveTitle();
      }}
    >
      <input
        class="input"
        aria-label={t('chat.titleField')}
        value={draftTitle()}
        maxLength={200}
        ref={(input) =>
          queueMicrotask(() => {
            input.focus();
            input.select();
          })
        }
        onInput={(event) => setDraftTitle(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') props.onDone();
        }}
      />
      <button type="submit" class="button primary">
        {t('chat.saveTitle')}
      </button>
      <button type="button" class="button" onClick={() => props.onDone()}>
        {t('dialog.cancel')}
      </button>
      <Show when={otherTitles().length > 0}>
        <div class="rename-others" role="group" aria-labelledby={otherTitlesId}>
          <span class="rename-others__label" id={otherTitlesId}>
            {t('sync.otherTitles')}
          </span>
          <For each={otherTitles()}>
            {(title) => (
              <button type="button" class="button small" aria-label={t('sync.useOtherTitle', { title })} onClick={() => setDraftTitle(title)}>
                {title}
              </button>
            )}
          </For>
        </div>
      </Show>
    </form>
  );
}
