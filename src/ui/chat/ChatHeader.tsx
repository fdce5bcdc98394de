import { createEffect, createSignal, createUniqueId, For, lazy, onCleanup, Show, Suspense } from 'solid-js';
import type { Conversation, ProfileView } from '../../schema/records';
import { useApp } from '../state/app-context';
import { settle } from '../common/error-report';
import { errorWordsModule } from '../common/lazy-error-words';
import { navigate } from '../hash-route';
import { t, withStrings } from '../i18n/i18n';
import { shownTitle } from './conversation-title';
import { ConfirmDialog } from '../common/lazy-confirm-dialog';
import { KeyboardShortcutsButton } from '../shell/KeyboardShortcuts';
import { profileName } from '../settings/profile-name';
import { MoreIcon } from '../common/icons';
import { WAITING_WORDS, type WaitingKind } from '../state/waiting-kind';
import { blockMarkdown } from '../messages/block-views';
// With the page, as before the panel loaded on use: Settings' profile form shares its sampling row's rules.
import './instructions.css';

// The forms behind the header's actions are not needed to read or write a conversation: their code loads when the
// actions are reached for (a pointer over them, the focus in them, the phone's menu opened), before they are used.
const RenameForm = lazy(() => withStrings('views', () => import('./RenameForm')).then((module) => ({ default: module.RenameForm })));
const ConversationInstructions = lazy(() => withStrings('views', () => import('./ConversationInstructions')).then((module) => ({ default: module.ConversationInstructions })));
// Which other device runs the conversation (sync): its notice's code loads when another device does.
const ChatRunner = lazy(() => withStrings('views', () => import('./ChatRunner')).then((module) => ({ default: module.ChatRunner })));
function preloadActionForms() {
  void RenameForm.preload();
  void ConversationInstructions.preload();
}

interface ChatHeaderProps {
  conversation: Conversation;
  profiles: readonly ProfileView[];
  /** The profile used when the conversation names none. */
  defaultProfileId: string;
  /** What the conversation waits for, while it does. */
  waiting?: WaitingKind;
  /** Opens "Find in conversation": on a narrow screen its button is in this header's menu, not above the log. */
  onFind?: () => void;
}

const [browserOnline, setBrowserOnline] = createSignal(typeof navigator === 'undefined' || navigator.onLine);
if (typeof window !== 'undefined') {
  window.addEventListener('online', () => setBrowserOnline(true));
  window.addEventListener('offline', () => setBrowserOnline(false));
}

/** The run state as the status line says it; idle says nothing. A wait is named by what waits (`waiting`). */
export function statusText(conversation: Conversation, waiting: WaitingKind = 'question'): string {
  switch (conversation.runState) {
    case 'awaiting_input':
      return t(WAITING_WORDS[waiting].status);
    case 'running':
      return t('status.running');
    case 'interrupted':
      return t('status.interrupted');
    case 'waiting_network':
      // The browser being online while the run waits means the server, not the network, is the problem.
      return browserOnline() ? t('status.serverUnreachable') : t('status.waitingNetwork');
    case 'error':
      // Worded from the code in the UI's language; the provider's own text is in the error block's details. The words
      // load with the conversation's data (ChatView) or the first error shown: nothing until then, never a key.
      if (!conversation.runError) return t('status.error');
      return errorWordsModule()?.runErrorText(conversation.runError.code) ?? '';
    case 'idle':
      return '';
  }
}

/**
 * Title (a heading), status line, Rename and Delete, and the "Model profile" picker. On a narrow screen the
 * last three sit behind one button, "Conversation actions", so the conversation keeps the height; so does
 * "Find in conversation", which wider screens show above the log.
 */
export function ChatHeader(props: ChatHeaderProps) {
  const app = useApp();
  const [renaming, setRenaming] = createSignal(false);
  const [editingInstructions, setEditingInstructions] = createSignal(false);
  const [confirmingDelete, setConfirmingDelete] = createSignal(false);
  const profileSelectId = `profile-select-${createUniqueId()}`;
  const toolsId = `chat-tools-${createUniqueId()}`;
  /** The actions menu on narrow screens (wide screens show the tools inline and ignore it). */
  const [actionsOpen, setActionsOpen] = createSignal(false);
  let actionsToggle: HTMLButtonElement | undefined;
  let tools: HTMLDivElement | undefined;

  // An open menu closes on a tap elsewhere and on Esc (focus goes back to its button), as menus do.
  createEffect(() => {
    if (!actionsOpen()) return;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node | null;
      // The delete dialog belongs to the menu: its Cancel brings focus back to Delete, which must still be there.
      if (confirmingDelete() || !target || tools?.contains(target) || actionsToggle?.contains(target)) return;
      setActionsOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || confirmingDelete()) return;
      setActionsOpen(false);
      actionsToggle?.focus();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    onCleanup(() => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    });
  });
  const selectedProfileId = () => props.conversation.profileId ?? props.defaultProfileId;

  /** The device that runs this conversation when it is another one (sync): every change here is then a proposal. */
  const runner = () => app.state.runners[props.conversation.id];

  function startRename() {
    setActionsOpen(false);
    setRenaming(true);
  }

  async function deleteConversation() {
    setConfirmingDelete(false);
    const conversationId = props.conversation.id;
    const result = await settle(app.client.send({ type: 'conversation.delete', conversationId }));
    if (!result) return;
    navigate({ name: 'home' });
    // The view is gone: focus the next sensible control rather than leaving it on <body>.
    queueMicrotask(() => document.querySelector<HTMLButtonElement>('button.new-conversation')?.focus());
  }

  async function setProfile(profileId: string) {
    setActionsOpen(false);
    // The change reaches the store as the worker's event (delivered before this reply), never from the reply.
    await settle(app.client.send({ type: 'conversation.setProfile', conversationId: props.conversation.id, profileId }));
  }

  /** The conversation as it is on screen (the versions shown), as a Markdown file. Its code loads with the first export. */
  async function exportMarkdown() {
    const { conversationMarkdown, markdownFileName, readWholePath } = await import('./conversation-markdown');
    const messages = await settle(readWholePath(app.client, props.conversation.id));
    if (!messages) return;
    const url = URL.createObjectURL(new Blob([conversationMarkdown({ title: shownTitle(props.conversation.title) }, messages, blockMarkdown)], { type: 'text/markdown' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = markdownFileName(shownTitle(props.conversation.title));
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  return (
    <header
      class="chat-header"
      data-actions-open={actionsOpen() ? 'true' : 'false'}
      data-runs-elsewhere={runner() ? 'true' : undefined}
      data-instructions-open={editingInstructions() ? 'true' : undefined}
    >
      <div class="chat-heading">
        <Show
          when={renaming()}
          fallback={<h1 class="chat-title" title={shownTitle(props.conversation.title)}>{shownTitle(props.conversation.title)}</h1>}
        >
          {/* The title stays until the form's code is here. */}
          <Suspense fallback={<h1 class="chat-title">{shownTitle(props.conversation.title)}</h1>}>
            <RenameForm conversation={props.conversation} onDone={() => setRenaming(false)} />
          </Suspense>
        </Show>
        <p class="chat-status" role="status" aria-live="polite" data-run-state={props.conversation.runState}>
          {statusText(props.conversation, props.waiting)}
        </p>
      </div>
      <button
        ref={actionsToggle}
        type="button"
        class="button icon-button chat-actions-toggle"
        aria-expanded={actionsOpen()}
        aria-controls={toolsId}
        onClick={() => {
          preloadActionForms();
          setActionsOpen(!actionsOpen());
        }}
      >
        <MoreIcon />
        <span class="visually-hidden">{t('chat.actions')}</span>
      </button>
      <div class="chat-tools" id={toolsId} ref={tools} onPointerEnter={preloadActionForms} onFocusIn={preloadActionForms}>
        <div class="profile-picker">
          <label class="profile-picker-label" for={profileSelectId}>
            {t('chat.profile')}
          </label>
          <select
            id={profileSelectId}
            class="select"
            value={selectedProfileId()}
            onChange={(event) => void setProfile(event.currentTarget.value)}
          >
            <Show when={!props.profiles.some((profile) => profile.id === selectedProfileId())}>
              <option value="" disabled selected>
                {t('chat.profileGone')}
              </option>
            </Show>
            <For each={props.profiles}>
              {(profile) => (
                <option value={profile.id} selected={profile.id === selectedProfileId()}>
                  {profileName(profile)}
                </option>
              )}
            </For>
          </select>
        </div>
        <Show when={props.onFind}>
          {(onFind) => (
            <button
              type="button"
              class="button menu-find"
              onClick={() => {
                setActionsOpen(false);
                onFind()();
              }}
            >
              {t('search.open')}
            </button>
          )}
        </Show>
        <Show when={!renaming()}>
          <button type="button" class="button" aria-label={t('chat.rename')} onClick={startRename}>
            {t('chat.renameShort')}
          </button>
        </Show>
        <button
          type="button"
          class="button"
          aria-expanded={editingInstructions()}
          onClick={() => {
            // The panel opens under the header: the menu that asked for it closes, as Rename's does.
            setActionsOpen(false);
            setEditingInstructions(!editingInstructions());
          }}
        >
          {t('chat.instructionsButton')}
        </button>
        <button type="button" class="button" onClick={() => void exportMarkdown()}>
          {t('chat.exportMarkdown')}
        </button>
        <KeyboardShortcutsButton
          class="menu-shortcuts"
          onBeforeOpen={() => {
            // The dialog gives the focus back to what had it: the menu's button, not an item of the menu it closes.
            setActionsOpen(false);
            actionsToggle?.focus();
          }}
        />
        <button
          type="button"
          class="button"
          aria-label={t('chat.delete')}
          onClick={() => setConfirmingDelete(true)}
        >
          {t('chat.deleteShort')}
        </button>
      </div>
      <Show when={confirmingDelete()}>
        <ConfirmDialog
          title={t('chat.deleteTitle')}
          body={t('chat.deleteBody', { title: shownTitle(props.conversation.title) })}
          confirmLabel={t('dialog.delete')}
          onConfirm={() => void deleteConversation()}
          onCancel={() => setConfirmingDelete(false)}
        />
      </Show>
      <Show when={editingInstructions()}>
        <Suspense fallback={null}>
          <ConversationInstructions conversation={props.conversation} onDone={() => setEditingInstructions(false)} />
        </Suspense>
      </Show>
      {/* In view on a phone too (not in "Conversation actions"): while another device runs it, this is the way to act. */}
      <Show when={runner()}>
        <Suspense fallback={null}>
          <ChatRunner conversationId={props.conversation.id} device={runner()} />
        </Suspense>
      </Show>
    </header>
  );
}
