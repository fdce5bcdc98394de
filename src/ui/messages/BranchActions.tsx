import { createEffect, createSignal, lazy, Show, Suspense, useContext } from 'solid-js';
import type { Conversation, Message } from '../../schema/records';
import { AppContext, type AppServices } from '../state/app-context';
import { settle } from '../common/error-report';
import { t, withStrings } from '../i18n/i18n';
import { EditIcon, RegenerateIcon } from '../common/icons';
import { sendBranchCommand, type BranchCommand } from './branch-command';

// The version switch, the editor and the dialogs of a branch (MessageBranching.tsx) and their words (the views' part):
// a first conversation has no versions and edits nothing, so they load with a conversation that has versions, or when
// Regenerate or Edit is reached for, before they are used.
const branching = () => withStrings('views', () => import('./MessageBranching'));
const MessageVersions = lazy(() => branching().then((module) => ({ default: module.MessageVersions })));
const LeaveBranchDialog = lazy(() => branching().then((module) => ({ default: module.LeaveBranchDialog })));
/** The user's message being edited (MessageBranching.tsx), shown once `preloadBranching` resolved. */
export const MessageEditor = lazy(() => branching().then((module) => ({ default: module.MessageEditor })));

/** Loads the branch views' code and words; once it resolves they render at once, with no empty frame. */
export function preloadBranching(): Promise<unknown> {
  return Promise.all([MessageVersions.preload(), LeaveBranchDialog.preload(), MessageEditor.preload()]);
}

/** Whether a message of `conversation` has other versions, so its view shows the version switch. */
export function hasVersions(conversation: Pick<Conversation, 'forks'> | undefined): boolean {
  return conversation?.forks?.some((fork) => fork.childIds.length > 1) ?? false;
}

/**
 * What a message offers for its versions (README, "Versions are branches, never copies"): Previous version / Next
 * version with "2 of 3" where it has several, Regenerate on a reply, Edit on the user's message (a new branch from
 * there; the old one stays reachable). None of it while a reply is being written.
 */
export function BranchActions(props: { message: Message; onEdit(): void }) {
  // Outside the app (a message rendered alone) there is no conversation to branch.
  return <Show when={useContext(AppContext)}>{(app) => <BranchButtons message={props.message} onEdit={props.onEdit} app={app()} />}</Show>;
}

function BranchButtons(props: { message: Message; onEdit(): void; app: AppServices }) {
  const app = props.app;
  const conversation = () => app.state.conversations[props.message.conversationId];
  const several = () => conversation()?.forks?.some((fork) => fork.childIds.length > 1 && fork.childIds.includes(props.message.id)) ?? false;
  const busy = () => conversation()?.runState === 'running';
  const [confirming, setConfirming] = createSignal<BranchCommand>();
  // Versions that came otherwise (another tab, another device) than with the conversation's data or this tab's buttons.
  createEffect(() => {
    if (several()) void preloadBranching();
  });
  /** The code first (a request waiting in the branch asks with its dialog), then the command. */
  const whenLoaded = (then: () => void) => void preloadBranching().then(then, then);

  const regenerate = () =>
    void sendBranchCommand(app, { type: 'message.regenerate', conversationId: props.message.conversationId, messageId: props.message.id }, setConfirming);

  return (
    <>
      <Show when={several()}>
        <Suspense fallback={null}>
          <MessageVersions message={props.message} app={app} />
        </Suspense>
      </Show>
      {/* While the reply holds a request for you, the request is what to answer: no Regenerate beside it. */}
      <Show when={props.message.role === 'assistant' && props.message.status !== 'streaming' && props.message.pendingRequestId === undefined}>
        <button
          type="button"
          class="button icon-button small"
          aria-label={t('branch.regenerate')}
          title={t('branch.regenerate')}
          disabled={busy()}
          onPointerEnter={() => void preloadBranching()}
          onFocus={() => void preloadBranching()}
          onClick={() => whenLoaded(regenerate)}
        >
          <RegenerateIcon />
        </button>
      </Show>
      <Show when={props.message.role === 'user'}>
        <button
          type="button"
          class="button icon-button small"
          aria-label={t('branch.edit')}
          title={t('branch.edit')}
          disabled={busy()}
          onPointerEnter={() => void preloadBranching()}
          onFocus={() => void preloadBranching()}
          onClick={() => whenLoaded(() => props.onEdit())}
        >
          <EditIcon />
        </button>
      </Show>
      <Show when={confirming()}>
        {(command) => (
          <Suspense fallback={null}>
            <LeaveBranchDialog
              onCancel={() => setConfirming(undefined)}
              onLeave={() => {
                setConfirming(undefined);
                void settle(app.client.send({ ...command(), discardPending: true }));
              }}
            />
          </Suspense>
        )}
      </Show>
    </>
  );
}
