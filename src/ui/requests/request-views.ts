import { lazy, type Component } from 'solid-js';
import type { RequestBlock, RequestKind, RequestOf } from '../../schema/messages/blocks';
import type { WorkerClient } from '../state/channel';
import type { MarkdownKit } from '../chat/markdown-kit';
import { t, withStrings, type MessageKey } from '../i18n/i18n';

/** What a conversation waits for: a question of the model, a tool call to approve (or run again), a server's form. */
export type WaitingKind = 'question' | 'approval' | 'form';

/** What a request's form is given where its message shows it. */
interface RequestFormProps<R extends RequestBlock> {
  block: R;
  conversationId: string;
  messageId: string;
  client: WorkerClient;
  thisDevice: string | undefined;
}

/**
 * How the page shows one kind of request, wherever it shows it: the UI half of its descriptor (core/requests has the
 * worker's), read by the message view, the inbox, notifications, the waiting badges and the Markdown export, none of
 * which switches over kinds. See docs/architecture.md, "Requests".
 */
interface RequestView<R extends RequestBlock> {
  /** Its form in the message, loaded when first shown; none for an approval, which its call's card shows. */
  form?: Component<RequestFormProps<R>> & { preload(): Promise<unknown> };
  /** "Waiting for you": what its entry says first, and how many more it asks beyond that. */
  inbox(request: R): { headline: string; more: number };
  /** A notification's title: only what kind of request waits, since anyone who sees the screen reads it. */
  notification: MessageKey;
  /** What its conversation waits for: the list's badge, the header's status, the composer's hint. */
  waiting: WaitingKind;
  /** How the Markdown export tells it ('' for nothing). */
  markdown(request: R, kit: MarkdownKit): string;
}

// A first conversation, and a reply of text, need none of these forms: each loads when a message shows one.
const QuestionForm = lazy(() => import('../question/QuestionForm').then((module) => ({ default: module.QuestionForm })));
const ElicitationForm = lazy(() => withStrings('views', () => import('./ElicitationForm')).then((module) => ({ default: module.ElicitationForm })));

const QUESTION: RequestView<RequestOf<'question'>> = {
  form: QuestionForm,
  inbox: (request) => ({ headline: request.payload.questions[0]?.question ?? '', more: request.payload.questions.length - 1 }),
  notification: 'notify.question',
  waiting: 'question',
  markdown: (request) =>
    request.payload.questions
      .map((question, index) => {
        const answer = request.response?.answers?.[index];
        const chosen = answer ? [...answer.selected, ...(answer.other ? [answer.other] : [])].join(', ') : '';
        return `> **${question.header}**: ${question.question}${chosen ? `\n>\n> → ${chosen}` : ''}`;
      })
      .join('\n\n'),
};

/** An approval (`inbox.approval`) or a "Run again / Skip" (`inbox.rerun`): told in Markdown by its call's result. */
function approvalView(inboxKey: MessageKey): RequestView<RequestOf<'permission'>> {
  return {
    inbox: (request) => ({ headline: t(inboxKey, { tool: request.payload.toolName }), more: 0 }),
    notification: 'notify.approval',
    waiting: 'approval',
    markdown: () => '',
  };
}

const ELICITATION: RequestView<RequestOf<'elicitation'>> = {
  form: ElicitationForm,
  inbox: (request) => ({ headline: request.payload.message, more: 0 }),
  notification: 'notify.elicitation',
  waiting: 'form',
  markdown: (request, kit) => kit.quote(`${request.payload.serverName}: ${request.payload.message}`),
};

/** The view of each kind of request. */
const REQUEST_VIEWS: { readonly [K in RequestKind]: RequestView<RequestOf<K>> } = {
  question: QUESTION,
  permission: approvalView('inbox.approval'),
  rerun: approvalView('inbox.rerun'),
  elicitation: ELICITATION,
};

/** The view of `request`'s kind. */
export function requestViewOf<R extends RequestBlock>(request: R): RequestView<R> {
  return REQUEST_VIEWS[request.kind] as unknown as RequestView<R>;
}

/** Loads the question form's code ahead of need: Parley's agent asks, so a conversation opened will likely show one. */
export function preloadQuestionForm(): void {
  void QuestionForm.preload();
}
