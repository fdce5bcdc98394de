import { createEffect, createMemo, createSignal, For, lazy, on, onCleanup, onMount, Show, Suspense } from 'solid-js';
import type { Message } from '../../schema/records';
import type { WorkerClient } from '../state/channel';
import { t, withStrings } from '../i18n/i18n';
import type { MessageMatches } from '../../schema/search/find-matches';
import { TextInSteps } from './LongText';
import { MessageView } from './MessageView';
import { rowHeightObserver } from './row-heights';
import { scrollFollowing } from './scroll-following';
import { rowOffsets, visibleRows } from './virtual-window';

// Find's code loads when it is reached for (a pointer over or the focus on its button, Ctrl/Cmd+F, the phone's menu),
// not with the conversation.
const FindInConversation = lazy(() => withStrings('views', () => import('./FindInConversation')).then((module) => ({ default: module.FindInConversation })));

interface MessageListProps {
  /** Undefined until the conversation's messages were read: then it says "Opening…", not "No messages yet". */
  messages: readonly Message[] | undefined;
  client: WorkerClient;
  /** How many stored messages come before `messages` and were not read yet. */
  earlier?: number;
  /** Reads stored messages before the first loaded one: the previous page, or all of them back to `fromSeq`. */
  loadEarlier?: (fromSeq?: number) => Promise<void>;
  /** Stored messages containing `query`, oldest first, with how many times; without it only loaded ones are searched. */
  search?: (query: string) => Promise<MessageMatches[]>;
  /** Whether "Find in conversation" is open, when the parent opens it too (a phone's menu); else the list keeps it. */
  finding?: boolean;
  onFindingChange?: (open: boolean) => void;
  /** A message to scroll to once the messages are read (a result of search across conversations), then `onRevealed`. */
  reveal?: { seq: number } | undefined;
  onRevealed?: () => void;
}

/** Rendered beyond each edge of the viewport (px), so a short scroll never shows a gap. */
const OVERSCAN = 600;
/** Earlier messages are read when the view comes this close (px) to the first loaded one. */
const LOAD_DISTANCE = 400;

/**
 * The conversation as a `role="log"` region named "Messages", windowed: only the messages near the view are in the
 * DOM, between two spacers sized from measured (or estimated) heights. It follows new text unless the user scrolled
 * up, keeps the message being read in place when anything above it changes, and reads earlier pages near the top.
 */
export function MessageList(props: MessageListProps) {
  let log!: HTMLDivElement;
  let rowsStart!: HTMLDivElement;
  const [ownSearching, setOwnSearching] = createSignal(false);
  const searching = () => props.finding ?? ownSearching();
  const setSearching = (open: boolean) => (props.onFindingChange ? props.onFindingChange(open) : setOwnSearching(open));
  const [marked, setMarked] = createSignal<number>();
  const [loading, setLoading] = createSignal(false);
  const heights = new Map<string, number>();
  const [measured, setMeasured] = createSignal(0);

  const all = () => props.messages ?? [];
  const ids = createMemo(() => all().map((message) => message.id));
  const indexById = createMemo(() => new Map(ids().map((id, index) => [id, index])));
  const offsets = createMemo(() => {
    measured();
    return rowOffsets(ids(), heights);
  });
  /** The log's scroll position above the first row (the "Show earlier" header), so offsets map to scrollTop. */
  const rowsTop = () => rowsStart?.offsetTop ?? 0;
  const view = scrollFollowing({ log: () => log, rowsTop, offsets, ids, indexById });
  const { scrollTop, viewport, atBottom } = view;
  const range = createMemo(() => visibleRows(offsets(), { top: scrollTop(), height: viewport(), overscan: OVERSCAN, atBottom: atBottom() }));
  const rendered = createMemo(() => all().slice(range().start, range().end));
  const total = () => offsets()[offsets().length - 1] ?? 0;
  const earlier = () => props.earlier ?? 0;

  // Near the top of what is loaded: read the previous page (its rows appear above without moving the view).
  // Tried once per first message: a failed read is not retried in a loop (the button stays for another try).
  let triedBefore: string | undefined;
  createEffect(() => {
    if (atBottom() || earlier() === 0 || loading() || !props.loadEarlier) return;
    if (scrollTop() > LOAD_DISTANCE || triedBefore === ids()[0]) return;
    triedBefore = ids()[0];
    void loadEarlier();
  });

  async function loadEarlier(fromSeq?: number) {
    if (!props.loadEarlier || loading()) return;
    setLoading(true);
    try {
      await props.loadEarlier(fromSeq);
    } finally {
      setLoading(false);
    }
  }

  // Created before the first rows, whose refs register them.
  const observer = rowHeightObserver(heights, (changed) => {
    if (changed) setMeasured((count) => count + 1);
    if (log.clientHeight > 0 && log.clientHeight !== viewport()) view.setViewport(log.clientHeight);
    // Content that shrank (a question form stepping to its short Review) can bring the end into view with no scroll
    // event: the reader is at the latest then, and "Jump to latest" would only cover the last message's actions.
    if (!atBottom() && view.nearEnd()) view.reachedEnd();
  });
  onMount(() => {
    observer?.observe(log);
    view.scrollToEnd();
    // Ctrl/Cmd+F finds in the stored conversation, since the page holds only part of it; a second press is the browser's.
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'f' && !searching()) {
        event.preventDefault();
        setSearching(true);
      }
    };
    document.addEventListener('keydown', onKey);
    onCleanup(() => {
      document.removeEventListener('keydown', onKey);
      observer?.disconnect();
    });
  });

  /**
   * The latest message is a request for the user (a question, an approval, a form) and part of it is in view: the reader
   * is at the latest thing, held at the form's top (reveal-question.ts), so "Jump to latest" would only cover the form.
   */
  const requestInView = () => {
    const last = all().at(-1);
    if (last?.pendingRequestId === undefined) return false;
    return (offsets()[all().length - 1] ?? 0) < scrollTop() + viewport();
  };

  /** Scrolls to the message with `seq`, reading stored messages back to it first when it is not loaded. */
  async function reveal(seq: number | undefined) {
    setMarked(seq);
    if (seq === undefined) return;
    const first = all()[0];
    if (first && seq < first.seq) await loadEarlier(seq);
    const index = all().findIndex((message) => message.seq === seq);
    if (index < 0 || marked() !== seq) return;
    view.showRow(index, 32);
  }

  // Asked from outside (search across conversations): scrolled to once the conversation's messages are here.
  createEffect(
    on([() => props.reveal, () => props.messages !== undefined], ([request, loaded]) => {
      if (!request || !loaded) return;
      props.onRevealed?.();
      void reveal(request.seq);
    }),
  );

  function closeSearch() {
    setSearching(false);
    log.focus();
  }

  const seqById = createMemo(() => new Map(all().map((message) => [message.id, message.seq])));
  /** While Find is open: stops a match waiting to be shown from pulling the view (the reader scrolls). */
  let stopPulling: (() => void) | undefined;

  return (
    <div class="message-list-frame">
      <div class="message-tools">
        <Show
          when={searching()}
          fallback={
            <button
              type="button"
              class="button small"
              aria-keyshortcuts="Control+F"
              onPointerEnter={() => void FindInConversation.preload()}
              onFocus={() => void FindInConversation.preload()}
              onClick={() => setSearching(true)}
            >
              {t('search.open')}
            </button>
          }
        >
          <Suspense fallback={null}>
            <FindInConversation
              log={() => log}
              seqOf={(id) => seqById().get(id)}
              mark={setMarked}
              reveal={reveal}
              scrollBy={view.scrollBy}
              search={props.search}
              loaded={all}
              onClose={closeSearch}
              onStopPulling={(stop) => (stopPulling = stop)}
            />
          </Suspense>
        </Show>
      </div>
      <div
        ref={log}
        class="message-list virtual-list"
        role="log"
        aria-label={t('messages.label')}
        tabIndex={0}
        onWheel={() => stopPulling?.()}
        onTouchStart={() => stopPulling?.()}
        onScroll={view.scrolled}
      >
        <Show when={props.messages === undefined}>
          <p class="message-list-empty">{t('chat.loading')}</p>
        </Show>
        <Show when={props.messages?.length === 0}>
          <p class="message-list-empty">{t('messages.empty')}</p>
        </Show>
        <Show when={earlier() > 0}>
          <button type="button" class="button show-earlier" disabled={loading()} onClick={() => void loadEarlier()}>
            {t('messages.showEarlier', { count: earlier() })}
          </button>
        </Show>
        <div ref={rowsStart} class="virtual-spacer" style={{ height: `${offsets()[range().start] ?? 0}px` }} />
        <For each={rendered()}>
          {(message) => (
            <div
              class="virtual-row"
              classList={{ 'search-current': marked() === message.seq }}
              data-id={message.id}
              ref={(element) => {
                observer?.observe(element);
                onCleanup(() => observer?.unobserve(element));
              }}
            >
              <TextInSteps.Provider value={!heights.has(message.id)}>
                <MessageView message={message} client={props.client} />
              </TextInSteps.Provider>
            </div>
          )}
        </For>
        <div class="virtual-spacer" style={{ height: `${total() - (offsets()[range().end] ?? 0)}px` }} />
      </div>
      <Show when={!atBottom() && !requestInView() && (props.messages?.length ?? 0) > 0}>
        <button type="button" class="button small jump-to-latest" onClick={view.jumpToLatest}>
          {t('messages.jumpToLatest')}
        </button>
      </Show>
    </div>
  );
}
