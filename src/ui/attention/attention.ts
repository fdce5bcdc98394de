import { createEffect, on, onCleanup } from 'solid-js';
import type { PendingRequest } from '../../schema/protocol';
import type { AppServices } from '../state/app-context';
import { settle } from '../common/error-report';
import { listPendingRequests } from '../state/pending-requests';
import { t } from '../i18n/i18n';
import { shownTitle } from '../chat/conversation-title';
import { requestViewOf } from '../requests/request-views';
import { notificationShowsTitle, notificationState } from './notification-preferences';

const PRESENCE_CHANNEL = 'parley-presence';

/**
 * Being called back: the app icon's badge counts the requests waiting for the user, in every tab; and when
 * a request arrives while no tab of Parley is visible, a system notification says what waits. Tabs tell each other
 * whether they are visible over a BroadcastChannel. A notification is tagged with its request, so tabs that both
 * notice it show one, and it is closed once the request is answered anywhere. Requests waiting at start are not
 * announced: a notification is news, never a reminder on load.
 */
export function trackAttention(app: AppServices): void {
  const tabId = crypto.randomUUID();
  const visibleElsewhere = new Map<string, boolean>();
  const channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(PRESENCE_CHANNEL);
  const visibleHere = () => document.visibilityState === 'visible';
  const say = (kind: 'state' | 'hello' | 'bye') => channel?.postMessage({ kind, tabId, visible: visibleHere() });
  if (channel) {
    channel.onmessage = (event: MessageEvent<{ kind: string; tabId: string; visible: boolean }>) => {
      const { kind, tabId: other, visible } = event.data ?? {};
      if (typeof other !== 'string') return;
      if (kind === 'bye') visibleElsewhere.delete(other);
      else visibleElsewhere.set(other, visible === true);
      if (kind === 'hello') say('state');
    };
  }
  const onVisibility = () => say('state');
  const onHide = () => say('bye');
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('pagehide', onHide);
  say('hello');
  onCleanup(() => {
    say('bye');
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('pagehide', onHide);
    channel?.close();
  });
  const noTabVisible = () => !visibleHere() && ![...visibleElsewhere.values()].some(Boolean);

  let known: Set<string> | undefined;
  createEffect(
    on(
      () => (app.state.conversationsLoaded ? app.state.pendingKey : undefined),
      async (key) => {
        // Until the conversations are listed, what waits is not known yet: the first list is the baseline.
        if (key === undefined) return;
        const pending = key === '' ? [] : await settle(listPendingRequests(app.client, key));
        if (!pending || key !== app.state.pendingKey) return;
        setBadge(pending.length);
        const keys = new Set(pending.map(notificationTag));
        const arrived = known ? pending.filter((request) => !known!.has(notificationTag(request))) : [];
        const gone = known ? [...known].filter((key) => !keys.has(key)) : [];
        known = keys;
        if (gone.length > 0) void closeNotifications(gone);
        const stillWaiting = (tag: string) => known?.has(tag) === true;
        if (arrived.length > 0 && notificationState() === 'on' && noTabVisible()) for (const request of arrived) void notify(request, stillWaiting);
      },
    ),
  );
}

function setBadge(count: number): void {
  const badging = navigator as Navigator & { setAppBadge?(count?: number): Promise<void>; clearAppBadge?(): Promise<void> };
  if (count > 0) void badging.setAppBadge?.(count)?.catch(() => undefined);
  else void badging.clearAppBadge?.()?.catch(() => undefined);
}

/**
 * What a notification says: only what kind of request waits, since anyone who sees the screen reads it. No question,
 * tool, server or server's message; the conversation's title (often the first thing the user typed) only if they chose it.
 */
export function notificationText(request: PendingRequest, showTitle: boolean): { title: string; body: string } {
  return { title: t(requestViewOf(request.request).notification), body: showTitle ? shownTitle(request.conversationTitle) : '' };
}

/**
 * Shows a request's notification. Showing takes a few awaits, during which another tab may answer the request: the
 * close sent meanwhile found nothing to close, so a request no longer waiting is not shown, or is closed once shown.
 */
async function notify(request: PendingRequest, stillWaiting: (tag: string) => boolean): Promise<void> {
  const tag = notificationTag(request);
  const registration = await navigator.serviceWorker.ready.catch(() => undefined);
  if (!registration || !stillWaiting(tag)) return;
  const { title, body } = notificationText(request, notificationShowsTitle());
  const shown = await registration
    .showNotification(title, { body, tag, icon: '/icons/icon-192.png', data: { conversationId: request.conversationId } })
    .then(() => true, () => false);
  if (shown && !stillWaiting(tag)) await closeNotifications([tag]);
}

/**
 * What names one request's notification: its conversation, message and id. Request ids are a provider's tool-call ids,
 * which repeat across conversations (the scripted model's first is `call_1_0` in every one): keyed by the id alone, a
 * second conversation's question was never shown, and answering the first closed nothing of the second.
 */
function notificationTag(pending: PendingRequest): string {
  return `${pending.conversationId}/${pending.messageId}/${pending.request.requestId}`;
}

async function closeNotifications(tags: readonly string[]): Promise<void> {
  const registration = await navigator.serviceWorker?.ready.catch(() => undefined);
  if (!registration) return;
  for (const tag of tags) for (const notification of await registration.getNotifications({ tag })) notification.close();
}

/** Opens the conversation a clicked notification names (the service worker asks the tab it focused). */
export function listenForNotificationClicks(open: (conversationId: string) => void): () => void {
  if (!('serviceWorker' in navigator)) return () => undefined;
  const onMessage = (event: MessageEvent<{ type?: string; conversationId?: unknown }>) => {
    if (event.data?.type === 'parley-open-conversation' && typeof event.data.conversationId === 'string') open(event.data.conversationId);
  };
  navigator.serviceWorker.addEventListener('message', onMessage);
  return () => navigator.serviceWorker.removeEventListener('message', onMessage);
}
