import { Show, createComputed, createMemo, createSignal, on } from 'solid-js';
import type { QuestionRequest, QuestionResolution } from '../../schema/messages/blocks';
import type { ResolvedOutcome } from '../../schema/protocol';
import type { QuestionAnswer } from '../../schema/forms/question';
import type { DeviceRef } from '../../schema/sync/device';
import { decidedElsewhere } from '../sync/device-name';
import { proposalText, useSyncStatus } from '../chat/proposal-words';
import type { WorkerClient } from '../state/channel';
import { t, type MessageKey } from '../i18n/i18n';
import { PendingQuestionForm } from './PendingQuestionForm';
import { outcomeOfBlock } from './state/question-outcome';
import { QuestionSummary } from './QuestionSummary';
import './question-form.css';

/** What the form needs of the worker channel: only `send`. */
export type QuestionClient = Pick<WorkerClient, 'send'>;

/**
 * The inline form of a question (a `request` block of kind `question`). While the block is pending it shows the form and sends
 * `request.resolve` (an answer or a dismissal) and debounced `question.saveDraft` itself; once resolved (here,
 * or in another tab: the block prop flips) it shows a compact summary instead, without a reload. With sync, a block
 * resolved on another device (`resolvedOn`, not `thisDevice`) is summed up as "Answered on <device>".
 */
export function QuestionForm(props: {
  block: QuestionRequest;
  conversationId: string;
  messageId: string;
  client: QuestionClient;
  /** This device's id (sync), to tell a decision made here from one made on another device. */
  thisDevice?: string | undefined;
}) {
  // What our own command recorded, shown until the block itself arrives resolved.
  const [recorded, setRecorded] = createSignal<ResolvedOutcome>();
  const [noticeKey, setNoticeKey] = createSignal<MessageKey>();
  /** Set when another tab resolved the question while this one showed it: what this tab had filled in, not used. */
  const [notUsed, setNotUsed] = createSignal<QuestionAnswer[]>();
  /** The device an answer of this form was proposed to (sync); the notice says it until the outcome arrives. */
  const [proposedTo, setProposedTo] = createSignal<DeviceRef>();
  createComputed(
    on(
      () => props.block.toolCallId,
      () => {
        setRecorded(undefined);
        setNoticeKey(undefined);
        setNotUsed(undefined);
        setProposedTo(undefined);
      },
      { defer: true },
    ),
  );
  const outcome = createMemo(() => outcomeOfBlock(props.block) ?? recorded());
  const sync = useSyncStatus();
  /** Where it was decided, when that is another device than this one. */
  const decidedOn = () => {
    const on = outcome()?.resolvedOn;
    return decidedElsewhere(on, props.thisDevice) ? on : undefined;
  };
  const noticeText = () => {
    const device = proposedTo();
    // Once the outcome is here the summary says where it was decided; "Sent to …" would be out of date.
    if (device && !outcome()) return proposalText('decision', device, sync());
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
                    // "Already answered in another tab" is wrong when the summary can name the device.
                    if (!decidedElsewhere(settled.resolvedOn, props.thisDevice)) setNoticeKey('question.alreadyResolved');
                  }
                }}
                onLeft={({ filledIn, sentHere }) => {
                  if (props.block.status === 'pending') return;
                  // Decided on another device: what this one filled in (or proposed) was not used, sent or not.
                  if (!sentHere || decidedElsewhere(props.block.resolvedOn, props.thisDevice)) setNotUsed(filledIn);
                }}
                onProposed={setProposedTo}
                onNotice={setNoticeKey}
              />
            )}
          </Show>
        }
      >
        {(shown) => (
          <QuestionSummary
            questions={props.block.payload.questions}
            resolution={shown().resolution as QuestionResolution}
            answers={shown().answers}
            resolvedAt={shown().resolvedAt}
            unsent={props.block.draft?.answers}
            elsewhere={notUsed()}
            decidedOn={decidedOn()}
          />
        )}
      </Show>
    </div>
  );
}
