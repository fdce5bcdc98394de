import { createEffect, createSignal, lazy, Match, on, onCleanup, Switch } from 'solid-js';
import { AppContext, type AppServices } from '../state/app-context';
import { listenForNotificationClicks, trackAttention } from '../attention/attention';
import type { WorkerClient } from '../state/channel';
import type { AppEvent } from '../../schema/events';
import { createReportingClient, createToasts, settle } from '../common/error-report';
import { errorWordsModule } from '../common/lazy-error-words';
import { createHashRoute, navigate } from '../hash-route';
import { loadStrings, locale, setLocale } from '../i18n/i18n';
import { trackPendingQuestionsInTitle } from '../attention/page-title';
import { createUiStore } from '../state/store';
import { ChatView } from '../chat/ChatView';
import { ConversationList } from '../conversations/ConversationList';
import { EmptyState } from './EmptyState';
import { KeyboardShortcuts } from './KeyboardShortcuts';
import { ErrorToasts, OutdatedBanner, StorageErrorBanner, WorkerRestartedBanner } from './StatusBanners';
import { AppBar, ConversationNav } from './AppFrame';
import { createServiceWorkerPrompt, OfflineNote, UpdatePrompt } from './UpdatePrompt';
import { trackVisualViewport } from './visual-viewport';

// Settings (profiles, MCP servers, data, the local model) is not on the first screen: its code and its strings load when
// it is opened, together, so it never shows before its words; an error's too, since it words refusals in place.
const Settings = lazy(() => Promise.all([import('../settings/Settings'), loadStrings('settings'), loadStrings('errors')]).then(([module]) => ({ default: module.Settings })));

/**
 * The shell: the "Conversations" nav, the routed main area (`#/c/<id>`, `#/settings`, home), banners
 * and toasts. Owns the UI store and feeds it every worker event; provides both through context.
 */
export function App(props: { client: WorkerClient }) {
  const { toasts, dismiss, dismissReason, report } = createToasts();
  const client = createReportingClient(props.client, report);
  const { state, dispatch } = createUiStore();
  const services: AppServices = { client, state, dispatch };
  const route = createHashRoute();
  const activeConversationId = () => {
    const current = route();
    return current.name === 'conversation' ? current.conversationId : undefined;
  };
  const [navOpen, setNavOpen] = createSignal(false);
  const serviceWorker = createServiceWorkerPrompt();
  onCleanup(trackVisualViewport());
  trackAttention(services);
  onCleanup(listenForNotificationClicks((conversationId) => navigate({ name: 'conversation', conversationId })));

  // "This conversation runs on Laptop. Press “Continue on this device”…" is untrue once the one on screen runs here.
  createEffect(
    on(
      () => {
        const conversationId = activeConversationId();
        return conversationId !== undefined && state.runners[conversationId] !== undefined ? conversationId : undefined;
      },
      (runsElsewhere, ranElsewhere) => {
        // The same conversation, taken over (here, or in another tab); leaving it for another one takes nothing away.
        if (ranElsewhere !== undefined && runsElsewhere === undefined && activeConversationId() === ranElsewhere) dismissReason('runs_elsewhere');
      },
    ),
  );

  // The store keeps the storage error's text; its reason and numbers, which the banner is worded from, are kept here.
  const [storageEvent, setStorageEvent] = createSignal<Extract<AppEvent, { type: 'storage-error' }>>();
  const unsubscribe = props.client.onEvent((event) => {
    if (event.type === 'storage-error') setStorageEvent(event);
    dispatch(event);
  });
  onCleanup(unsubscribe);
  const storageError = () => {
    const message = state.storageError;
    if (message === undefined) return undefined;
    const event = storageEvent();
    // The banner shows once an error's words are here (they load with the first error).
    return errorWordsModule()?.describeStorageError(event?.message === message ? event : { message });
  };

  // Read at start, and again from a worker that replaced one that died (what changed meanwhile came as no event).
  createEffect(
    on(
      () => state.workerGeneration,
      () => {
        // A conversation left unused when the page last closed (or went to Settings, then was reloaded) is not kept.
        const onScreen = activeConversationId();
        // Listed after the clean-up, so a conversation it removes is not listed again after its deletion event.
        void settle(client.send({ type: 'conversation.discardUnused', ...(onScreen ? { keep: onScreen } : {}) }))
          .then(() => settle(client.send({ type: 'conversation.list' })))
          .then((conversations) => {
          if (conversations) dispatch({ type: 'conversations-listed', conversations });
          // Not needed to show the first screen: asked once its reads are answered, so it does not queue beside them.
          void loadSyncState();
        });
        void settle(client.send({ type: 'settings.get' })).then((settings) => {
          if (settings) dispatch({ type: 'settings-changed', settings });
        });
        void settle(client.send({ type: 'profiles.list' })).then((profiles) => {
          if (profiles) dispatch({ type: 'profiles-changed', profiles });
        });
      },
    ),
  );

  /**
   * Sync at start: its status (which also says this device's id, for "Answered on <device>"), and only when it is on the
   * conversations other devices run. Sent on the raw client: a background read that fails is no news for a toast.
   */
  async function loadSyncState(): Promise<void> {
    try {
      const status = await props.client.send({ type: 'sync.status' }, { showsErrors: true });
      dispatch({ type: 'sync-status', status });
      if (status.state === 'off') return;
      dispatch({ type: 'sync-runners', runners: await props.client.send({ type: 'sync.runners' }) });
    } catch {
      // Sync stays unknown (as off): every conversation acts as this device's, and Settings → Sync says why.
    }
  }

  // The stored language wins over the browser's once settings are known.
  createEffect(() => {
    const stored = state.settings?.locale;
    if (stored) void setLocale(stored);
  });
  createEffect(() => {
    document.documentElement.lang = locale();
  });
  trackPendingQuestionsInTitle(() => state.pendingQuestionCount);

  return (
    <AppContext.Provider value={services}>
      <div
        class="app"
        data-route={route().name}
        data-nav-open={navOpen() ? 'true' : 'false'}
        data-first-run={state.conversationsLoaded && state.conversationOrder.length === 0 ? 'true' : undefined}
      >
        <UpdatePrompt prompt={serviceWorker} />
        <OutdatedBanner shown={state.appOutdated} />
        <WorkerRestartedBanner shown={state.workerRestarted} onDismiss={() => dispatch({ type: 'worker-restart-dismissed' })} />
        <StorageErrorBanner error={storageError()} onDismiss={() => dispatch({ type: 'storage-error-dismissed' })} />
        <AppBar
          navExpanded={navOpen() || route().name === 'home'}
          settingsCurrent={route().name === 'settings'}
          onToggleNav={() => setNavOpen(!navOpen())}
          onSettings={() => {
            setNavOpen(false);
            navigate({ name: 'settings' });
          }}
        >
          <OfflineNote prompt={serviceWorker} />
        </AppBar>
        <ConversationNav>
          <ConversationList activeConversationId={activeConversationId()} onPicked={() => setNavOpen(false)} />
        </ConversationNav>
        <main class="main-area">
          <Switch fallback={<EmptyState />}>
            <Match when={activeConversationId()} keyed>
              {(conversationId) => <ChatView conversationId={conversationId} />}
            </Match>
            <Match when={route().name === 'settings'}>
              <Settings />
            </Match>
          </Switch>
        </main>
        <ErrorToasts toasts={toasts()} onDismiss={dismiss} />
        <KeyboardShortcuts
          actions={{
            newConversation: () => document.querySelector<HTMLButtonElement>('button.new-conversation')?.click(),
            focusComposer: () => document.querySelector<HTMLTextAreaElement>('textarea.composer-input')?.focus(),
            stopReply: () => {
              const conversationId = activeConversationId();
              if (!conversationId || state.conversations[conversationId]?.runState !== 'running') return false;
              void settle(client.send({ type: 'run.stop', conversationId }));
              return true;
            },
          }}
        />
      </div>
    </AppContext.Provider>
  );
}
