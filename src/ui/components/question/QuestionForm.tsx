import { Show, createComputed, createMemo, createSignal, on } from 'solid-js';
import type { QuestionRequestBlock, QuestionResolution } from '../../../schema/blocks';
import type { ResolvedOutcome } from '../../../schema/protocol';
import type { QuestionAnswer } from '../../../schema/question';
import type { WorkerClient } from '../../channel';
import { t, type MessageKey } from '../../i18n/i18n';
import { PendingQuestionForm } from './PendingQuestionForm';
import { outcomeOfBlock } from './question-outcome';
import { QuestionSummary } from './QuestionSummary';
import './question-form.css';

/** What the form needs of the worker channel: only `send`. */
export type QuestionClient = Pick<WorkerClient, 'send'>;

/**
 * The inline form of a `question_request` block. While the block is pending it shows the form and sends
 * `question.answer`, `question.dismiss` and debounced `question.saveDraft` itself; once resolved (here,
 * or in another tab: the block prop flips) it shows a compact summary instead, without a reload.
 */
export function QuestionForm(props: {
  block: QuestionRequestBlock;
  conversationId: string;
  messageId: string;
  client: QuestionClient;
}) {
  // What our own command recorded, shown until the block itself arrives resolved.
  const [recorded, setRecorded] = createSignal<ResolvedOutcome>();
  const [noticeKey, setNoticeKey] = createSignal<MessageKey>();
  /** Set when another tab resolved the question while this one showed it: what this tab had filled in, not used. */
  const [notUsed, setNotUsed] = createSignal<QuestionAnswer[]>();
  createComputed(
    on(
      () => props.block.toolCallId,
      () => {
        setRecorded(undefined);
        setNoticeKey(undefined);
        setNotUsed(undefined);
      },
      { defer: true },
    ),
  );
  const outcome = createMemo(() => outcomeOfBlock(props.block) ?? recorded());
  const noticeText = () => {
    const key = noticeKey();
    return key ? t(key) : '';
  };

  return (
    <div class="question-form" data-question-status={outcome() ? 'resolved' : 'pending'}>
      <p role="status" aria-live="polite" class="question-form__notice">
        {noticeText()}
      </p>
      <Show
        when={outcome()}
        fallback={
          <Show when={props.block.toolCallId} keyed>
            {(_toolCallId) => (
              <PendingQuestionForm
                block={props.block}
                conversationId={props.conversationId}
                messageId={props.messageId}
                client={props.client}
                onSettled={(settled, alreadyResolved, filledIn) => {
                  setRecorded(settled);
                  if (alreadyResolved) {
                    setNotUsed(filledIn);
                    setNoticeKey('question.alreadyResolved');
                  }
                }}
                onLeft={({ filledIn, sentHere }) => {
                  if (!sentHere && props.block.status !== 'pending') setNotUsed(filledIn);
                }}
                onNotice={setNoticeKey}
              />
            )}
          </Show>
        }
      >
        {(shown) => (
          <QuestionSummary
            questions={props.block.questions}
            resolution={shown().resolution as QuestionResolution}
            answers={shown().answers}
            resolvedAt={shown().resolvedAt}
            unsent={props.block.draft?.answers}
            elsewhere={notUsed()}
          />
        )}
      </Show>
    </div>
  );
}
