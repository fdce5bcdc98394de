import { createSignal, createUniqueId, Show } from 'solid-js';
import type { Conversation } from '../../schema/records';
import { useApp } from '../state/app-context';
import { settle } from '../common/error-report';
import { t } from '../i18n/i18n';
import './instructions.css';

/**
 * "Instructions for this conversation": told to the model in place of its profile's instructions, in this conversation
 * only (empty: the profile's apply again). Stored on the conversation, so they travel with it (export, other tabs).
 */
export function ConversationInstructions(props: { conversation: Conversation; onDone(): void }) {
  const app = useApp();
  const id = `conversation-instructions-${createUniqueId()}`;
  const [text, setText] = createSignal(props.conversation.instructions ?? '');
  const [saved, setSaved] = createSignal(false);
  async function save(event: SubmitEvent) {
    event.preventDefault();
    const result = await settle(app.client.send({ type: 'conversation.setInstructions', conversationId: props.conversation.id, instructions: text() }));
    if (result) setSaved(true);
  }
  return (
    <form class="conversation-instructions" onSubmit={(event) => void save(event)} onInput={() => setSaved(false)}>
      <label for={id}>{t('chat.instructions')}</label>
      <textarea
        id={id}
        class="input"
        rows={3}
        maxLength={20_000}
        // Opened from a menu that then closes: the focus goes to the field, not to <body>.
        ref={(field) => queueMicrotask(() => field.focus({ preventScroll: true }))}
        aria-describedby={`${id}-hint`}
        value={text()}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            props.onDone();
          }
        }}
      />
      <small class="field-hint" id={`${id}-hint`}>
        {t('chat.instructionsHint')}
      </small>
      <div class="form-row">
        <button type="submit" class="button primary small">
          {t('chat.instructionsSave')}
        </button>
        <button type="button" class="button small" onClick={() => props.onDone()}>
          {t('keys.close')}
        </button>
        <Show when={saved()}>
          <span class="saved-note" role="status">
            {t('chat.instructionsSaved')}
          </span>
        </Show>
      </div>
    </form>
  );
}
