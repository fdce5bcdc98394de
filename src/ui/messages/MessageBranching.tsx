import { createSignal, createUniqueId, Show } from 'solid-js';
import type { Message } from '../../schema/records';
import { versionsOf } from '../../schema/versions';
import { WireError } from '../../schema/wire-error';
import { useApp, type AppServices } from '../state/app-context';
import { settle } from '../common/error-report';
import { t } from '../i18n/i18n';
import { ConfirmDialog } from '../common/lazy-confirm-dialog';
import { TooLongAlert, tooLong } from '../common/TooLong';
import { sendBranchCommand, type BranchCommand } from './branch-command';
import { DeleteIcon, NextIcon, PreviousIcon } from '../common/icons';

/**
 * A message's versions (README, "Versions are branches, never copies"): Previous version / Next version with "2 of 3",
 * and Delete this version. Loaded with the data of a conversation that has versions, or with the first Regenerate or
 * Edit (BranchActions.tsx): a first conversation has none.
 */
export function MessageVersions(props: { message: Message; app: AppServices }) {
  const app = props.app;
  const conversation = () => app.state.conversations[props.message.conversationId];
  const versions = () => versionsOf(conversation()?.forks, props.message.id);
  const busy = () => conversation()?.runState === 'running';
  const [confirming, setConfirming] = createSignal<BranchCommand>();
  const [deleting, setDeleting] = createSignal(false);

  const select = (offset: number) => {
    const id = versions().ids[versions().index + offset];
    if (id) void sendBranchCommand(app, { type: 'message.selectVersion', conversationId: props.message.conversationId, messageId: id }, setConfirming);
  };

  return (
    <>
      <div class="message-versions" role="group" aria-label={t('branch.versions')}>
        <button type="button" class="button icon-button small" aria-label={t('branch.previous')} title={t('branch.previous')} disabled={busy() || versions().index === 0} onClick={() => select(-1)}>
          <PreviousIcon />
        </button>
        <span role="status" class="message-versions__count">
          {t('branch.position', { index: versions().index + 1, count: versions().ids.length })}
        </span>
        <button type="button" class="button icon-button small" aria-label={t('branch.next')} title={t('branch.next')} disabled={busy() || versions().index === versions().ids.length - 1} onClick={() => select(1)}>
          <NextIcon />
        </button>
        <button type="button" class="button icon-button small" aria-label={t('branch.delete')} title={t('branch.delete')} disabled={busy()} onClick={() => setDeleting(true)}>
          <DeleteIcon />
        </button>
      </div>
      <Show when={deleting()}>
        <ConfirmDialog
          title={t('branch.deleteTitle')}
          body={t('branch.deleteBody')}
          confirmLabel={t('dialog.delete')}
          onCancel={() => setDeleting(false)}
          onConfirm={() => {
            setDeleting(false);
            void settle(app.client.send({ type: 'message.deleteVersion', conversationId: props.message.conversationId, messageId: props.message.id }));
          }}
        />
      </Show>
      <Show when={confirming()}>
        {(command) => (
          <LeaveBranchDialog
            onCancel={() => setConfirming(undefined)}
            onLeave={() => {
              setConfirming(undefined);
              void settle(app.client.send({ ...command(), discardPending: true }));
            }}
          />
        )}
      </Show>
    </>
  );
}

/** The user's message being edited: a textbox "Edit message" with Send (a new branch from here) and Cancel. */
export function MessageEditor(props: { message: Message; onDone(): void }) {
  const app = useApp();
  const original = () => props.message.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
  const [text, setText] = createSignal(original());
  const [confirming, setConfirming] = createSignal(false);
  const tooLongId = `edit-too-long-${createUniqueId()}`;
  let box!: HTMLTextAreaElement;

  async function submit(discardPending = false) {
    const value = text().trim();
    if (!value || tooLong(value)) return;
    try {
      await app.client.send({ type: 'message.edit', conversationId: props.message.conversationId, messageId: props.message.id, text: value, ...(discardPending ? { discardPending } : {}) });
      props.onDone();
    } catch (error) {
      if (error instanceof WireError && error.reason === 'request_pending_in_branch') setConfirming(true);
    }
  }

  return (
    <form
      class="message-editor"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <textarea
        ref={(element) => {
          box = element;
          queueMicrotask(() => box.focus());
        }}
        aria-label={t('branch.editBox')}
        aria-describedby={tooLong(text()) ? tooLongId : undefined}
        value={text()}
        rows={Math.min(12, Math.max(2, text().split('\n').length))}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            props.onDone();
          } else if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            void submit();
          }
        }}
      />
      <TooLongAlert text={text()} id={tooLongId} />
      <div class="message-editor__actions">
        <button type="button" class="button small" onClick={() => props.onDone()}>
          {t('branch.cancel')}
        </button>
        <button type="submit" class="button small primary" disabled={!text().trim() || tooLong(text()) || text().trim() === original().trim()}>
          {t('branch.send')}
        </button>
      </div>
      <Show when={confirming()}>
        <LeaveBranchDialog
          onCancel={() => setConfirming(false)}
          onLeave={() => {
            setConfirming(false);
            void submit(true);
          }}
        />
      </Show>
    </form>
  );
}

/** "Leave the waiting request?": a new or another version would leave a branch in which a request for the user waits. */
export function LeaveBranchDialog(props: { onCancel(): void; onLeave(): void }) {
  return (
    <ConfirmDialog
      title={t('branch.leaveTitle')}
      body={t('branch.leaveBody')}
      confirmLabel={t('branch.leaveConfirm')}
      onCancel={() => props.onCancel()}
      onConfirm={() => props.onLeave()}
    />
  );
}
