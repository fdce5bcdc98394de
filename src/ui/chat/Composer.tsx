import { createEffect, createSignal, createUniqueId, lazy, on, onCleanup, Show } from 'solid-js';
import { composerText, setComposerText } from '../state/conversation-drafts';
import type { RunState } from '../../schema/records';
import { attachmentRefusals, clearAttachments, filesIn, offerAttachments, offersChecked, pendingAttachments, removeAttachment, type ImagesProfile } from '../attachments/attachment-drafts';
import { t, withStrings } from '../i18n/i18n';
import { TooLongAlert, tooLong } from '../common/TooLong';
import { AttachIcon, SendIcon, StopIcon } from '../common/icons';
import { WAITING_WORDS, type WaitingKind } from '../state/waiting-kind';

interface ComposerProps {
  conversationId: string;
  /** The unsent text stored with the conversation (from another session or tab); used when this tab has none. */
  storedDraft?: string | undefined;
  runState: RunState;
  /** What waits above while the run state is `awaiting_input`: the hint names it. */
  waiting?: WaitingKind;
  /** Saves the unsent text (debounced here); an empty string clears it. */
  onDraft?(text: string): void;
  /** The profile of the conversation's model (absent: taken as one that takes images): an image offered to a model that takes none is refused in words. */
  modelProfile?: ImagesProfile;
  /** Files are being dragged over the conversation (they are attached where they are dropped). */
  dragging?: boolean;
  /** Sends the text and files; resolves true when the worker took them (the field and the chips are then cleared). */
  onSend(text: string, files: readonly File[]): Promise<boolean>;
  onStop(): void;
}

// The chips and the refusals' words load with the first file offered, not with the app.
const ComposerAttachments = lazy(() => withStrings('views', () => import('../attachments/AttachmentChips')).then((module) => ({ default: module.ComposerAttachments })));

/**
 * The message box. Enter sends, Shift+Enter breaks the line. While a run is going, Stop replaces Send;
 * while a question waits, typing stays allowed (the worker takes the message as a reply in chat) and Stop
 * stands beside Send, ending the run with the question recorded as stopped.
 */
/** Quiet period before the unsent text is saved. */
const DRAFT_DELAY_MS = 500;

export function Composer(props: ComposerProps) {
  // What this tab typed wins; else what was stored. Read once: echoes of our own saves must not move the caret.
  const [text, setTextSignal] = createSignal(composerText(props.conversationId) ?? props.storedDraft ?? '');
  let draftTimer: ReturnType<typeof setTimeout> | undefined;
  const setText = (next: string) => {
    setTextSignal(next);
    setComposerText(props.conversationId, next);
    if (draftTimer !== undefined) clearTimeout(draftTimer);
    draftTimer = setTimeout(() => {
      draftTimer = undefined;
      props.onDraft?.(next);
    }, DRAFT_DELAY_MS);
  };
  // The stored draft arrives with the conversation when it is opened after a reload.
  createEffect(
    on(
      () => props.storedDraft,
      (stored) => {
        if (stored && text() === '' && composerText(props.conversationId) === undefined) setTextSignal(stored);
      },
    ),
  );
  onCleanup(() => {
    // Leaving the view: save at once what is still waiting for its quiet period.
    if (draftTimer !== undefined) {
      clearTimeout(draftTimer);
      props.onDraft?.(text());
    }
  });
  const [sending, setSending] = createSignal(false);
  const running = () => props.runState === 'running' || props.runState === 'waiting_network';
  const attachments = () => pendingAttachments(props.conversationId);
  // What the worker would refuse is said here, before Send, with the text kept.
  const canSend = () => (text().trim().length > 0 || attachments().length > 0) && !tooLong(text()) && !running() && !sending();
  let fileInput: HTMLInputElement | undefined;
  const offer = (files: readonly File[]) => {
    if (files.length > 0) void offerAttachments(props.conversationId, files, props.modelProfile);
  };
  const hintId = `composer-hint-${createUniqueId()}`;
  const tooLongId = `composer-too-long-${createUniqueId()}`;

  async function submit() {
    if (!canSend()) return;
    setSending(true);
    // The send supersedes a draft save still waiting for its quiet period: fired while a slow send is on its way, it
    // stored the sent text again after the worker had cleared it, and the echo put it back into the emptied box.
    const draftWasWaiting = draftTimer !== undefined;
    clearTimeout(draftTimer);
    draftTimer = undefined;
    try {
      // Files chosen just before are still being checked: they go with this message.
      const checking = offersChecked(props.conversationId);
      if (checking) await checking;
      // Refused (a full disk, a file the worker would not take): the text and the files stay, to try again.
      if (await props.onSend(text().trim(), attachments().map((attachment) => attachment.file))) {
        setTextSignal('');
        setComposerText(props.conversationId, ''); // the worker cleared the stored draft with the message
        clearAttachments(props.conversationId);
      } else if (draftWasWaiting) {
        setText(text()); // not sent: the draft is saved after all
      }
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
      data-awaiting={props.runState === 'awaiting_input' ? 'true' : undefined}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Show when={props.runState === 'awaiting_input'}>
        <p class="composer-hint" id={hintId}>
          {t(WAITING_WORDS[props.waiting ?? 'question'].hint)}
        </p>
      </Show>
      <TooLongAlert text={text()} id={tooLongId} />
      <Show when={props.dragging}>
        <p class="drop-hint">{t('attach.drop')}</p>
      </Show>
      <Show when={attachments().length > 0 || attachmentRefusals(props.conversationId).length > 0}>
        <ComposerAttachments attachments={attachments()} refusals={attachmentRefusals(props.conversationId)} onRemove={(key) => removeAttachment(props.conversationId, key)} />
      </Show>
      <div class="composer-row">
        <button type="button" class="button icon-button composer-attach" aria-label={t('attach.button')} title={t('attach.button')} onClick={() => fileInput?.click()}>
          <AttachIcon />
        </button>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          onChange={(event) => {
            offer(Array.from(event.currentTarget.files ?? []));
            event.currentTarget.value = ''; // the same file can be chosen again after a removal
          }}
        />
        <textarea
          class="composer-input"
          aria-label={t('composer.label')}
          aria-describedby={[props.runState === 'awaiting_input' ? hintId : '', tooLong(text()) ? tooLongId : ''].filter(Boolean).join(' ') || undefined}
          placeholder={t('composer.placeholder')}
          rows={1}
          // Chromium resolves dir="auto" once and keeps it when the field is emptied: set it only while there is text.
          dir={text() ? 'auto' : undefined}
          value={text()}
          onInput={(event) => setText(event.currentTarget.value)}
          onKeyDown={onKeyDown}
          onPaste={(event) => {
            // A pasted image or file is attached; pasted text is left to the field.
            const files = filesIn(event.clipboardData);
            if (files.length === 0) return;
            event.preventDefault();
            offer(files);
          }}
        />
        <Show
          when={running()}
          fallback={
            <button type="submit" class="button primary composer-button" disabled={!canSend()}>
              <SendIcon />
              <span class="label-text">{t('composer.send')}</span>
            </button>
          }
        >
          <button type="button" class="button danger composer-button" onClick={() => props.onStop()}>
            <StopIcon />
            <span class="label-text">{t('composer.stop')}</span>
          </button>
        </Show>
        <Show when={props.runState === 'awaiting_input'}>
          <button type="button" class="button composer-button" onClick={() => props.onStop()}>
            <StopIcon />
            <span class="label-text">{t('composer.stop')}</span>
          </button>
        </Show>
      </div>
    </form>
  );
}

