import { createRoot } from 'solid-js';
import { waitFor } from '@solidjs/testing-library';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notificationText, trackAttention } from '../../src/ui/attention/attention';
import { setNotificationShowsTitle } from '../../src/ui/attention/notification-preferences';
import { createUiStore } from '../../src/ui/state/store';
import type { AppServices } from '../../src/ui/state/app-context';
import type { WorkerClient } from '../../src/ui/state/channel';
import type { Conversation } from '../../src/schema/records';
import type { PendingRequest } from '../../src/schema/protocol';

// Being called back: what a notification says, and that a request answered elsewhere is never left announced.

const question: PendingRequest = {
  conversationId: 'c1',
  conversationTitle: 'Trip plans',
  messageId: 'm1',
  request: {
    type: 'request',
    kind: 'question',
    requestId: 'call-q',
    toolCallId: 'call-q',
    status: 'pending',
    payload: { questions: [{ header: 'Budget', question: 'What budget?', options: [{ label: 'Low' }], multiple: false, custom: true }] },
  },
};
const approval: PendingRequest = {
  conversationId: 'c2',
  conversationTitle: 'Files',
  messageId: 'm2',
  request: { type: 'request', kind: 'permission', requestId: 'call-a', toolCallId: 'call-a', status: 'pending', payload: { toolName: 'mcp__files__delete' } },
};
const rerun: PendingRequest = { ...approval, request: { ...approval.request, kind: 'rerun' } as PendingRequest['request'] };
const elicitation: PendingRequest = {
  conversationId: 'c3',
  conversationTitle: 'Sign up',
  messageId: 'm3',
  request: { type: 'request', kind: 'elicitation', requestId: 'e1', toolCallId: 't1', status: 'pending', payload: { serverName: 'everything', message: 'Your name, please.', requestedSchema: {} } },
};

describe('what a notification says', () => {
  it('says only what kind of request waits: no title, question, tool, server or server\'s message', () => {
    expect(notificationText(question, false)).toEqual({ title: 'Parley is waiting for your answer', body: '' });
    expect(notificationText(approval, false)).toEqual({ title: 'Parley is waiting for your approval', body: '' });
    expect(notificationText(rerun, false)).toEqual({ title: 'Parley is waiting for your approval', body: '' });
    expect(notificationText(elicitation, false)).toEqual({ title: 'Parley is waiting for you to fill in a form', body: '' });
  });

  it('names the conversation by its title when the user chose it, and still nothing of the request', () => {
    expect(notificationText(question, true)).toEqual({ title: 'Parley is waiting for your answer', body: 'Trip plans' });
    expect(notificationText(approval, true)).toEqual({ title: 'Parley is waiting for your approval', body: 'Files' });
    expect(notificationText(elicitation, true)).toEqual({ title: 'Parley is waiting for you to fill in a form', body: 'Sign up' });
  });
});

/** The service worker's notifications as a browser keeps them: one per tag, each closable. */
function fakeRegistration() {
  const shown: Array<{ title: string; body: string; tag: string; closed: boolean }> = [];
  let hold: Promise<void> = Promise.resolve();
  let asked = 0;
  let looked = 0;
  const registration = {
    async showNotification(title: string, options: { tag: string; body: string }) {
      asked += 1;
      await hold;
      for (const old of shown) if (old.tag === options.tag) old.closed = true;
      shown.push({ title, body: options.body, tag: options.tag, closed: false });
    },
    async getNotifications(filter: { tag?: string } = {}) {
      looked += 1;
      return shown.filter((entry) => !entry.closed && (filter.tag === undefined || entry.tag === filter.tag)).map((entry) => ({ title: entry.title, close: () => (entry.closed = true) }));
    },
  };
  return {
    registration,
    open: () => shown.filter((entry) => !entry.closed).map((entry) => entry.title),
    everShown: () => shown.map((entry) => entry.title),
    /** What each notification shown said, title and body. */
    texts: () => shown.map((entry) => ({ title: entry.title, body: entry.body })),
    /** How many times the page asked to show one (finished or not). */
    asked: () => asked,
    /** How many times the page looked for notifications to close. */
    looked: () => looked,
    /** Until the returned function is called, showing a notification does not finish (the browser is slow to show it). */
    holdShowing() {
      let release!: () => void;
      hold = new Promise((resolve) => (release = resolve));
      return release;
    },
  };
}

const conversation = (id: string, runState: Conversation['runState']): Conversation => ({ id, title: `T ${id}`, createdAt: 0, updatedAt: 1, runState, completedSteps: 1 });

function setup() {
  const worker = fakeRegistration();
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { ready: Promise.resolve(worker.registration), addEventListener() {}, removeEventListener() {} } });
  // This tab is in the background, and no other tab of Parley is open.
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
  const { state, dispatch } = createUiStore();
  let pending: PendingRequest[] = [];
  let answerPending: Promise<void> = Promise.resolve();
  // Answers with the requests waiting when asked, however late the answer arrives.
  const send = vi.fn(async () => {
    const asked = pending;
    await answerPending;
    return asked;
  }) as unknown as WorkerClient['send'];
  const app = { client: { send, onEvent: () => () => undefined }, state, dispatch } as unknown as AppServices;
  const dispose = createRoot((dispose) => {
    trackAttention(app);
    return dispose;
  });
  dispatch({ type: 'conversations-listed', conversations: [conversation('c1', 'idle')] });
  return {
    worker,
    dispose,
    /** The worker's list of requests changes (this tab's or another's doing); the conversation list follows. */
    waiting(requests: PendingRequest[]) {
      pending = requests;
      const waitingIn = new Set(requests.map((request) => request.conversationId));
      const ids = new Set(['c1', ...waitingIn]);
      dispatch({ type: 'conversations-listed', conversations: [...ids].map((id) => conversation(id, waitingIn.has(id) ? 'awaiting_input' : 'idle')) });
    },
    /** Until the returned function is called, the worker's answer to "what is pending" does not arrive. */
    holdListing() {
      let release!: () => void;
      answerPending = new Promise((resolve) => (release = resolve));
      return release;
    },
    send,
  };
}

describe('notifications follow the requests', () => {
  let dispose: () => void = () => undefined;
  beforeEach(() => {
    vi.stubGlobal('Notification', { permission: 'granted' });
    localStorage.setItem('parley-notify', 'on');
  });
  afterEach(() => {
    dispose();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('announces a request that arrives while no tab is visible, and closes it once answered', async () => {
    const tab = setup();
    dispose = tab.dispose;
    tab.waiting([question]);
    await waitFor(() => expect(tab.worker.open()).toEqual(['Parley is waiting for your answer']));
    tab.waiting([]);
    await waitFor(() => expect(tab.worker.open()).toEqual([]));
  });

  it("names the conversation only once \"Show the conversation's title\" is checked on this device", async () => {
    const tab = setup();
    dispose = tab.dispose;
    tab.waiting([question]);
    await waitFor(() => expect(tab.worker.texts()).toEqual([{ title: 'Parley is waiting for your answer', body: '' }]));
    tab.waiting([]);
    await waitFor(() => expect(tab.worker.open()).toEqual([]));
    setNotificationShowsTitle(true);
    expect(localStorage.getItem('parley-notify-title')).toBe('on');
    tab.waiting([approval]);
    await waitFor(() => expect(tab.worker.texts()).toHaveLength(2));
    expect(tab.worker.texts()[1]).toEqual({ title: 'Parley is waiting for your approval', body: 'Files' });
    setNotificationShowsTitle(false);
    expect(localStorage.getItem('parley-notify-title')).toBeNull();
  });

  it('tells apart two conversations whose requests have the same id: each is announced, and answering one closes only its own', async () => {
    const tab = setup();
    dispose = tab.dispose;
    const other: PendingRequest = { ...question, conversationId: 'c9', messageId: 'm9' };
    tab.waiting([question]);
    await waitFor(() => expect(tab.worker.open()).toEqual(['Parley is waiting for your answer']));
    tab.waiting([question, other]);
    await waitFor(() => expect(tab.worker.open()).toEqual(['Parley is waiting for your answer', 'Parley is waiting for your answer']));
    tab.waiting([other]);
    await waitFor(() => expect(tab.worker.open()).toHaveLength(1));
    expect(tab.worker.texts()).toHaveLength(2);
  });

  it('does not announce a request that another tab answered before this one learned what waits', async () => {
    const tab = setup();
    dispose = tab.dispose;
    const release = tab.holdListing();
    tab.waiting([question]);
    await waitFor(() => expect(tab.send).toHaveBeenCalledTimes(1));
    // Answered in another tab while this tab's question to the worker was under way.
    tab.waiting([]);
    release();
    // The stale answer has arrived and been acted on: every promise behind it settles before a new task starts.
    await (tab.send as unknown as { mock: { results: Array<{ value: Promise<unknown> }> } }).mock.results[0]!.value;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(tab.worker.asked()).toBe(0);
    expect(tab.worker.everShown()).toEqual([]);
  });

  it('closes a notification whose request was answered in another tab while the browser was still showing it', async () => {
    const tab = setup();
    dispose = tab.dispose;
    const show = tab.worker.holdShowing();
    tab.waiting([question]);
    await waitFor(() => expect(tab.worker.asked()).toBe(1));
    // The request is answered elsewhere, and this tab hears of it and looks for its notification to close, before the
    // browser has it on screen.
    tab.waiting([]);
    await waitFor(() => expect(tab.worker.looked()).toBe(1));
    show();
    await waitFor(() => expect(tab.worker.everShown()).toEqual(['Parley is waiting for your answer']));
    await waitFor(() => expect(tab.worker.open()).toEqual([]));
  });
});
