import { createEffect, createMemo, createSignal, lazy, on, onCleanup, Show } from 'solid-js';
import type { DeviceRef } from '../../schema/sync/device';
import { filesIn, offerAttachments } from '../attachments/attachment-drafts';
import { MESSAGE_TEXT_LIMIT, SCRIPTED_PROFILE_ID } from '../../schema/limits';
import type { Conversation, ProfileView } from '../../schema/records';
import { UNTITLED } from '../../schema/conversation-title';
import { composerText, isBeingCreated, whenCreated } from '../state/conversation-drafts';
import { WireError } from '../../schema/wire-error';
import { useApp } from '../state/app-context';
import { settle } from '../common/error-report';
import { loadErrorWords } from '../common/lazy-error-words';
import { navigate, parseRoute } from '../hash-route';
import { revealDone, revealFor } from '../state/reveal-request';
import { holdViewLock } from '../state/view-lock';
import { t, withStrings } from '../i18n/i18n';
import { proposalText } from './proposal-words';
import { ChatHeader } from './ChatHeader';
import { Composer } from './Composer';
import { MessageList } from '../messages/MessageList';
import { hasVersions, preloadBranching } from '../messages/BranchActions';
import { preloadQuestionForm } from '../requests/request-views';
import { RunNoticeBar } from './RunNoticeBar';
import { waitingKindInMessages } from '../state/waiting-kind';

// Needed only when a profile synced from another device lacks its key here: not part of the first load.
const KeyNeededForm = lazy(() => withStrings('views', () => import('./KeyNeededForm')).then((module) => ({ default: module.KeyNeededForm })));

/** Messages read per step back through a long conversation. */
const EARLIER_PAGE_SIZE = 100;

function standIn(conversationId: string): Conversation {
  return { id: conversationId, title: UNTITLED, createdAt: 0, updatedAt: 0, runState: 'idle', completedSteps: 0 };
}

/** One conversation: header, messages, run notices, Continue/Retry, and the composer. */
export function ChatView(props: { conversationId: string }) {
  preloadQuestionForm();
  const app = useApp();
  // While its creation is on the way the view already shows (with a composer to type in): a stand-in record until then.
  const conversation = () => app.state.conversations[props.conversationId] ?? (isBeingCreated(props.conversationId) ? standIn(props.conversationId) : undefined);
  const messages = () => app.state.messages[props.conversationId];
  const runState = () => conversation()?.runState ?? 'idle';
  // The open conversation's messages are loaded: they say what waits, and change first.
  const waiting = () => waitingKindInMessages(messages()) ?? 'question';

  const profiles = createMemo((): ProfileView[] => {
    const listed = app.state.profiles;
    if (listed.some((profile) => profile.id === SCRIPTED_PROFILE_ID)) return listed;
    const scripted: ProfileView = { id: SCRIPTED_PROFILE_ID, name: t('profile.scriptedName'), kind: 'scripted', baseUrl: '', model: '', apiKeyMasked: '' };
    return [scripted, ...listed];
  });

  // Messages are read whole when a conversation becomes active; events keep them current after that.
  createEffect(
    on(
      // A restarted worker is read again: the old one may have died mid-reply.
      () => [props.conversationId, app.state.workerGeneration] as const,
      ([conversationId]) => {
        void whenCreated(conversationId)
          .then(() => {
            app.dispatch({ type: 'conversation-opening', conversationId });
            // A conversation with versions shows their switch with its messages, one stopped on an error says why: their
            // code and words load beside the read.
            const shown = wordsAndViewsFor(conversation());
            return app.client.send({ type: 'conversation.open', conversationId }).then((opened) => Promise.all([shown, wordsAndViewsFor(opened.conversation)]).then(() => opened));
          })
          .then(
          (opened) => app.dispatch({ type: 'conversation-opened', conversation: opened.conversation, messages: opened.messages, earlier: opened.earlier ?? 0 }),
          (error: unknown) => {
            if (error instanceof WireError && error.code === 'not_found' && props.conversationId === conversationId) {
              navigate({ name: 'home' });
            }
          },
        );
      },
    ),
  );

  // Left for another conversation or home, a conversation never used is not kept (the worker decides what is unused).
  // Not when Settings opens: Back (or a model picked there) returns to it. A reload or the next start drops it then.
  const releaseViewLock = holdViewLock(props.conversationId);
  // Arriving in a conversation just made, the ones left unused on the way are cleaned up once more: a departure's own
  // clean-up can run before the worker has seen the release of the view it left (quick clicks on a slow start).
  if (isBeingCreated(props.conversationId)) {
    const arrived = props.conversationId;
    void whenCreated(arrived).then(() => {
      if (parseRoute(window.location.hash).name === 'conversation' && composerText(arrived) === undefined) void settle(app.client.send({ type: 'conversation.discardUnused', keep: arrived }));
    });
  }
  onCleanup(() => {
    const leftId = props.conversationId;
    void Promise.all([releaseViewLock(), whenCreated(leftId)]).then(() => {
      const now = parseRoute(window.location.hash);
      if (now.name === 'settings' || composerText(leftId) !== undefined) return;
      void settle(app.client.send({ type: 'conversation.discardUnused', ...(now.name === 'conversation' ? { keep: now.conversationId } : {}) }));
    });
  });

  // Deleted here or in another tab: leave rather than show a conversation that no longer exists.
  let wasShown = false;
  createEffect(() => {
    if (conversation()) wasShown = true;
    else if (wasShown) navigate({ name: 'home' });
  });

  /**
   * What this device sent to the device that runs the conversation (sync): not a message here yet, so a note says where
   * it went. It goes when the conversation's messages change (the runner's record synced back) or another is opened.
   */
  const [proposal, setProposal] = createSignal<{ kind: 'message' | 'stop'; device: DeviceRef; text?: string }>();
  createEffect(on([() => props.conversationId, () => messages()?.at(-1)?.id, () => messages()?.length], () => setProposal(undefined), { defer: true }));

  // Whether its model takes images is read from this profile when files are offered (the worker checks again when sending).
  const modelProfile = () => {
    const profileId = conversation()?.profileId ?? app.state.settings?.defaultProfileId ?? SCRIPTED_PROFILE_ID;
    return profiles().find((candidate) => candidate.id === profileId);
  };
  // Its run stopped for want of the key of a profile synced from another device: the key is asked for here.
  const keyNeededBy = () => (runState() === 'error' && conversation()?.runError?.code === 'key_needed' ? modelProfile() : undefined);
  // Files dragged over the conversation are attached where they are dropped; `dragDepth` counts nested enter/leave.
  const [dragging, setDragging] = createSignal(false);
  let dragDepth = 0;
  const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') === true;
  // A file dropped beside the conversation (the list, the header) would make the browser open it in place of the app.
  const refuseStrayDrop = (event: DragEvent) => {
    if (carriesFiles(event)) event.preventDefault();
  };
  document.addEventListener('dragover', refuseStrayDrop);
  document.addEventListener('drop', refuseStrayDrop);
  onCleanup(() => {
    document.removeEventListener('dragover', refuseStrayDrop);
    document.removeEventListener('drop', refuseStrayDrop);
  });

  async function send(text: string, files: readonly File[]): Promise<boolean> {
    await whenCreated(props.conversationId);
    const attachments = files.map((file) => ({ name: file.name, type: file.type, blob: file }));
    const result = await settle(app.client.send({ type: 'message.send', conversationId: props.conversationId, text, ...(attachments.length > 0 ? { attachments } : {}) }));
    if (!result) return false;
    if (result.proposedTo) setProposal({ kind: 'message', device: result.proposedTo, text });
    // The one reply that writes to the store, on purpose: a new conversation's first message can arrive (as an event)
    // before the conversation's opening read has made a list to keep it in; the reply fills that gap. Idempotent.
    if (result.message) app.dispatch({ type: 'message-upserted', message: result.message });
    return true;
  }

  /** The page before the first loaded message, or every stored message back to `fromSeq` (a search match). */
  async function loadEarlier(fromSeq?: number): Promise<void> {
    const conversationId = props.conversationId;
    const first = messages()?.[0];
    if (!first) return;
    const page = await settle(app.client.send({ type: 'conversation.messages', conversationId, beforeSeq: first.seq, limit: fromSeq === undefined ? EARLIER_PAGE_SIZE : 100_000, ...(fromSeq === undefined ? {} : { fromSeq }) }));
    if (page) app.dispatch({ type: 'message-page-loaded', conversationId, messages: page.messages, earlier: page.earlier });
  }

  // Find is opened from the log's own button, from Ctrl+F, or on a phone from the header's "Conversation actions".
  const [finding, setFinding] = createSignal(false);

  const stop = () =>
    void settle(app.client.send({ type: 'run.stop', conversationId: props.conversationId })).then((result) => {
      if (result?.proposedTo) setProposal({ kind: 'stop', device: result.proposedTo });
    });
  const resume = () => void settle(app.client.send({ type: 'run.continue', conversationId: props.conversationId }));

  return (
    <Show when={conversation()} fallback={<p class="chat-loading">{t('chat.loading')}</p>}>
      {(current) => (
        <section
          class="chat-view"
          data-dragging={dragging() ? 'true' : undefined}
          onDragEnter={(event) => {
            if (!carriesFiles(event)) return;
            event.preventDefault();
            dragDepth += 1;
            setDragging(true);
          }}
          onDragOver={(event) => {
            // Without this the browser opens the dropped file in place of the app.
            if (carriesFiles(event)) event.preventDefault();
          }}
          onDragLeave={(event) => {
            if (!carriesFiles(event)) return;
            dragDepth = Math.max(0, dragDepth - 1);
            if (dragDepth === 0) setDragging(false);
          }}
          onDrop={(event) => {
            if (!carriesFiles(event)) return;
            event.preventDefault();
            dragDepth = 0;
            setDragging(false);
            void offerAttachments(props.conversationId, filesIn(event.dataTransfer), modelProfile());
          }}
        >
          <ChatHeader
            conversation={current()}
            profiles={profiles()}
            defaultProfileId={app.state.settings?.defaultProfileId ?? SCRIPTED_PROFILE_ID}
            waiting={waiting()}
            onFind={() => setFinding(true)}
          />
          <MessageList
            messages={messages()}
            client={app.client}
            earlier={app.state.earlierMessages[props.conversationId] ?? 0}
            loadEarlier={loadEarlier}
            search={(query) => app.client.send({ type: 'conversation.search', conversationId: props.conversationId, query }).then((found) => found.matches)}
            finding={finding()}
            onFindingChange={setFinding}
            reveal={revealFor(props.conversationId)}
            onRevealed={() => {
              const request = revealFor(props.conversationId);
              if (request) revealDone(request);
            }}
          />
          <div class="run-bar">
            <p class="proposal-note" role="status">
              <Show when={proposal()}>
                {(sent) => (
                  <>
                    {proposalText(sent().kind, sent().device, app.state.sync)}
                    <Show when={sent().text}>{(text) => <q class="proposal-note__text" dir="auto">{text()}</q>}</Show>
                  </>
                )}
              </Show>
            </p>
            <Show when={app.state.runNotices[props.conversationId]}>{(notice) => <RunNoticeBar notice={notice()} />}</Show>
            <Show when={keyNeededBy()}>{(needing) => <KeyNeededForm profile={needing()} conversationId={props.conversationId} />}</Show>
            <Show when={runState() === 'interrupted' || runState() === 'error'}>
              <button type="button" class="button" onClick={resume}>
                {t('run.continue')}
              </button>
            </Show>
            <Show when={runState() === 'waiting_network'}>
              <button type="button" class="button" onClick={resume}>
                {t('run.retry')}
              </button>
            </Show>
          </div>
          <Composer
            conversationId={props.conversationId}
            storedDraft={app.state.conversations[props.conversationId]?.draft}
            runState={runState()}
            waiting={waiting()}
            modelProfile={modelProfile()}
            dragging={dragging()}
            onSend={send}
            onStop={stop}
            // A draft over the message limit is kept up to it (the composer says the message is too long to send).
            onDraft={(text) => void whenCreated(props.conversationId).then(() => app.client.send({ type: 'conversation.saveDraft', conversationId: props.conversationId, text: text.slice(0, MESSAGE_TEXT_LIMIT) }).catch(() => undefined))}
          />
        </section>
      )}
    </Show>
  );
}

/**
 * Resolves once what `conversation`'s data shows renders at once: the version switch when it has versions, the words of
 * the error that stopped it (a failed load shows them later).
 */
function wordsAndViewsFor(conversation: Conversation | undefined): Promise<unknown> {
  return Promise.all([
    hasVersions(conversation) ? preloadBranching() : undefined,
    conversation?.runError ? loadErrorWords() : undefined,
  ]).catch(() => undefined);
}
