/** Sending a pending question's answer or dismissal, and what the worker says back: recorded, proposed, or already resolved. */

import { createSignal } from 'solid-js';
import type { QuestionAnswer, QuestionDraft } from '../../../schema/forms/question';
import { WireError, type ResolvedOutcome } from '../../../schema/wire-error';
import type { Message } from '../../../schema/records';
import type { Proposed } from '../../../schema/commands';
import type { DeviceRef } from '../../../schema/sync/device';
import type { WorkerClient } from '../../state/channel';
import type { MessageKey } from '../../i18n/i18n';
import type { DraftSaver } from './draft-saver';
import { outcomeFromMessage, sendFailure, type ErrorText } from './question-outcome';

/** The form's own props that sending needs: read when used, as props are. */
interface QuestionResolutionHost {
  client: Pick<WorkerClient, 'send'>;
  onSettled: (outcome: ResolvedOutcome, alreadyResolved: boolean, filledIn: QuestionAnswer[]) => void;
  onNotice: (key: MessageKey) => void;
  onProposed?: ((device: DeviceRef) => void) | undefined;
}

interface QuestionResolutionOptions {
  /** The question's tool call, as the commands name it. */
  target: () => { conversationId: string; messageId: string; toolCallId: string };
  saver: DraftSaver;
  /** What is filled in, as answers and as a draft. */
  answers: () => QuestionAnswer[];
  draft: () => QuestionDraft;
  setError: (error: ErrorText | undefined) => void;
}

/**
 * `resolve` sends an answer or a dismissal and takes what comes back. `busy` while a command is on its way, `proposed`
 * once it went as a proposal to the device that runs the conversation, `settled` once the outcome is recorded.
 */
export function createQuestionResolution(host: QuestionResolutionHost, options: QuestionResolutionOptions) {
  const { target, saver, answers, draft, setError } = options;
  const [busy, setBusy] = createSignal(false);
  /** Sent as a proposal to the device that runs the conversation: waiting for its outcome, nothing more to send. */
  const [proposed, setProposed] = createSignal(false);
  const locked = () => busy() || proposed();
  let settled = false;

  async function resolve(send: () => Promise<{ message: Message } & Proposed>, expected: ResolvedOutcome): Promise<void> {
    const hadUnsavedDraft = saver.cancel();
    // The command leaves first; the form's own re-render (busy, errors cleared) happens while the worker works.
    const sent = send();
    setBusy(true);
    setError(undefined);
    try {
      const result = await sent;
      if (result.proposedTo) {
        setProposed(true);
        host.onProposed?.(result.proposedTo);
        return;
      }
      settled = true;
      host.onSettled(outcomeFromMessage(result.message, target().toolCallId) ?? expected, false, answers());
      // The form is gone: the next thing to do is writing, so focus goes to the composer, not to <body>.
      if (expected.resolution === 'dismissed') document.querySelector<HTMLTextAreaElement>('textarea.composer-input')?.focus();
    } catch (caught) {
      if (caught instanceof WireError && caught.code === 'already_resolved') {
        if (caught.outcome) {
          settled = true;
          host.onSettled(caught.outcome, true, answers());
        } else {
          host.onNotice('question.alreadyResolved');
        }
        return;
      }
      if (hadUnsavedDraft) saver.schedule(draft());
      setError(await sendFailure(caught));
    } finally {
      setBusy(false);
    }
  }

  return { busy, proposed, locked, settled: () => settled, resolve };
}
