import { createSignal, createUniqueId, Show } from 'solid-js';
import type { RunState } from '../../schema/records';
import { t } from '../i18n/i18n';

export interface ComposerProps {
  runState: RunState;
  /** Sends the text; resolves true when the worker took it (the field is then cleared). */
  onSend(text: string): Promise<boolean>;
  onStop(): void;
}

/**
 * The message box. Enter sends, Shift+Enter breaks the line. While a run is going, Stop replaces Send;
 * while a question waits, typing stays allowed (the worker takes the message as a reply in chat) and Stop
 * stands beside Send, ending the run with the question recorded as stopped.
 */
export function Composer(props: ComposerProps) {
  const [text, setText] = createSignal('');
  const [sending, setSending] = createSignal(false);
  const running = () => props.runState === 'running' || props.runState === 'waiting_network';
  const canSend = () => text().trim().length > 0 && !running() && !sending();
  const hintId = `composer-hint-${createUniqueId()}`;

  async function submit() {
    if (!canSend()) return;
    setSending(true);
    try {
      if (await props.onSend(text().trim())) setText('');
    } finally {
      setSending(false);
    }
  }

  function onKeyDown(event: KeyboardEvent) {
    // An IME uses Enter to confirm a composition; that Enter is not a send.
    if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    void submit();
  }

  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Show when={props.runState === 'awaiting_input'}>
        <p class="composer-hint" id={hintId}>
          {t('composer.questionHint')}
        </p>
      </Show>
      <div class="composer-row">
        <textarea
          class="composer-input"
          aria-label={t('composer.label')}
          aria-describedby={props.runState === 'awaiting_input' ? hintId : undefined}
          placeholder={t('composer.placeholder')}
          rows={1}
          value={text()}
          onInput={(event) => setText(event.currentTarget.value)}
          onKeyDown={onKeyDown}
        />
        <Show
          when={running()}
          fallback={
            <button type="submit" class="button primary" disabled={!canSend()}>
              {t('composer.send')}
            </button>
          }
        >
          <button type="button" class="button danger" onClick={() => props.onStop()}>
            {t('composer.stop')}
          </button>
        </Show>
        <Show when={props.runState === 'awaiting_input'}>
          <button type="button" class="button" onClick={() => props.onStop()}>
            {t('composer.stop')}
          </button>
        </Show>
      </div>
    </form>
  );
}
