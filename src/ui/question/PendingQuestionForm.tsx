import { For, Show, createMemo, createSignal, createUniqueId, onCleanup, onMount } from 'solid-js';
import type { QuestionRequest } from '../../schema/messages/blocks';
import type { QuestionAnswer } from '../../schema/forms/question';
import type { ResolvedOutcome } from '../../schema/wire-error';
import type { DeviceRef } from '../../schema/sync/device';
import type { WorkerClient } from '../state/channel';
import { t, type MessageKey } from '../i18n/i18n';
import { createDraftSaver, flushWhenPageHides } from './state/draft-saver';
import { QuestionActions } from './QuestionActions';
import { QuestionFieldset } from './QuestionFieldset';
import { QuestionNavigation } from './QuestionNavigation';
import { createNarrowScreen } from './state/narrow-screen';
import { createQuestionKeyboard } from './state/question-keys';
import {
  answersFromState,
  createQuestionFormState,
  draftFromState,
  isAnswered,
  reduceQuestionForm,
  type QuestionFormAction,
} from './state/question-form-state';
import { announce, type ErrorText } from './state/question-outcome';
import { QuestionReview } from './QuestionReview';
import { createFormView } from './state/reveal-question';
import { createQuestionResolution } from './state/question-resolution';

/** Quiet period before a draft is saved: long enough to coalesce typing, short enough to survive a reload. */
export const DRAFT_DELAY_MS = 400;

/**
 * The pending question form: a tab per question plus Review (a stepper on a narrow screen), the inputs,
 * Submit and Dismiss, the keyboard, and draft saving; it keeps the current question's text in view. It
 * sends its own commands and reports the recorded outcome through `onSettled` (`alreadyResolved` when
 * another tab got there first, with what this tab had filled in). `onLeft` says what was filled in when the
 * form goes away, and whether this tab sent anything: if not, the outcome came from elsewhere. With sync, an answer to a
 * conversation another device runs is a proposal (`onProposed`): nothing is decided yet, so the form stays, with its
 * answers, until the block comes back resolved; it cannot be sent twice (a device proposes a thing once).
 */
export function PendingQuestionForm(props: {
  block: QuestionRequest;
  conversationId: string;
  messageId: string;
  client: Pick<WorkerClient, 'send'>;
  onSettled: (outcome: ResolvedOutcome, alreadyResolved: boolean, filledIn: QuestionAnswer[]) => void;
  onNotice: (key: MessageKey) => void;
  onLeft?: (left: { filledIn: QuestionAnswer[]; sentHere: boolean }) => void;
  onProposed?: (device: DeviceRef) => void;
}) {
  const baseId = createUniqueId();
  // A tool call's questions never change. Reading them once keeps the DOM (and the focus in the Other
  // textbox) when the worker echoes a saved draft back as a new block object with equal questions.
  const initialQuestions = props.block.payload.questions;
  const questions = () => initialQuestions;
  const reviewTab = () => questions().length;
  const tabId = (tab: number) => `${baseId}-tab-${tab}`;
  const panelId = (tab: number) => `${baseId}-panel-${tab}`;

  // Seeded once from the stored draft; later drafts echoed back by the worker are our own.
  const [state, setState] = createSignal(createQuestionFormState(initialQuestions, props.block.draft));
  const answers = createMemo(() => answersFromState(questions(), state()));
  const [error, setError] = createSignal<ErrorText>();
  const [announced, setAnnounced] = createSignal(false);
  /** Submit was pressed with questions unanswered: Review lists them and offers "Submit anyway". */
  const [confirmingSkip, setConfirmingSkip] = createSignal(false);
  /** Dismiss (or Esc) was pressed with answers filled in: say they will be lost and ask first. */
  const [confirmingDismiss, setConfirmingDismiss] = createSignal(false);
  const single = () => questions().length === 1;
  const narrow = createNarrowScreen();
  /** Tabs on a wide screen; a narrow one steps through the questions instead (and one question needs neither). */
  const tabbed = () => !single() && !narrow();
  const unanswered = () => questions().flatMap((question, index) => (isAnswered(answers()[index]) ? [] : [{ question, index }]));
  const view = createFormView();
  const otherTextElements: HTMLTextAreaElement[] = [];
  let skipNotice: HTMLElement | undefined;

  const target = () => ({ conversationId: props.conversationId, messageId: props.messageId, toolCallId: props.block.toolCallId });
  /** The question as `request.resolve` names it: every request is resolved by its id. */
  const resolveTarget = () => ({ conversationId: props.conversationId, messageId: props.messageId, requestId: props.block.toolCallId });
  const saver = createDraftSaver((draft) => {
    props.client.send<'question.saveDraft'>({ type: 'question.saveDraft', ...target(), draft }).catch(() => {
      // A draft is a convenience: a refused save (the question was just resolved elsewhere) must not disturb answering.
    });
  }, DRAFT_DELAY_MS);

  function dispatch(action: QuestionFormAction): void {
    const next = reduceQuestionForm(questions(), state(), action);
    if (next === state()) return;
    setState(next);
    setError(undefined);
    setConfirmingDismiss(false);
    if (action.type !== 'tab-activated') setConfirmingSkip(false);
    saver.schedule(draftFromState(next));
  }

  function activate(tab: number): void {
    dispatch({ type: 'tab-activated', tab });
    view.reveal(tab);
  }

  const focusAnswer = (tab: number) => view.focusAnswer(tab, tab === reviewTab());
  const focusOption = (questionIndex: number, optionIndex: number) => view.focusOption(questionIndex, optionIndex);

  function pickOption(questionIndex: number, label: string, mayAdvance: boolean): void {
    dispatch({ type: 'option-picked', questionIndex, label });
    const question = questions()[questionIndex];
    // Single choice is one decision, so going on to the next tab saves a step; never auto-submit.
    if (mayAdvance && question && !question.multiple && questions().length > 1) {
      activate(questionIndex + 1);
      focusAnswer(questionIndex + 1);
    }
  }

  function pickOther(questionIndex: number, mayFocusText: boolean): void {
    dispatch({ type: 'other-picked', questionIndex });
    if (mayFocusText && state().otherChosen[questionIndex]) otherTextElements[questionIndex]?.focus();
  }

  function pickByDigit(digit: number): void {
    const questionIndex = state().activeTab;
    const question = questions()[questionIndex];
    if (!question) return;
    const option = question.options[digit - 1];
    if (option) {
      pickOption(questionIndex, option.label, true);
      if (state().activeTab === questionIndex) focusOption(questionIndex, digit - 1);
    } else if (question.custom && digit === question.options.length + 1) {
      pickOther(questionIndex, true);
      if (!state().otherChosen[questionIndex]) focusOption(questionIndex, digit - 1);
    }
  }

  const { busy, proposed, locked, settled, resolve } = createQuestionResolution(props, {
    target,
    saver,
    answers,
    draft: () => draftFromState(state()),
    setError,
  });

  const keyboard = createQuestionKeyboard({ dismiss: () => void dismiss(), submit: () => void submit(), pick: pickByDigit });

  async function submit(skipUnanswered = false): Promise<void> {
    if (locked() || settled()) return;
    const current = answers();
    // An all-empty submit is what other agents mistook for a real answer; Dismiss says that honestly.
    if (!current.some(isAnswered)) {
      setError({ key: 'question.nothingChosen' });
      return;
    }
    // Skipping a question is allowed, but never by accident: Review lists what is unanswered first.
    if (!skipUnanswered && unanswered().length > 0) {
      setConfirmingSkip(true);
      activate(reviewTab());
      queueMicrotask(() => skipNotice?.focus());
      return;
    }
    await resolve(
      () => props.client.send<'request.resolve'>({ type: 'request.resolve', ...resolveTarget(), approved: true, params: { answers: current } }, { showsErrors: true }),
      { resolution: 'answered', answers: current, resolvedAt: Date.now() },
    );
  }

  async function dismiss(discardAnswers = false): Promise<void> {
    if (locked() || settled()) return;
    if (!discardAnswers && answers().some(isAnswered)) {
      setConfirmingDismiss(true);
      return;
    }
    await resolve(() => props.client.send<'request.resolve'>({ type: 'request.resolve', ...resolveTarget(), approved: false }, { showsErrors: true }), {
      resolution: 'dismissed',
      resolvedAt: Date.now(),
    });
  }

  let letGoOfQuestion: (followNewest: boolean) => void = () => undefined;
  onMount(() => {
    setAnnounced(true);
    letGoOfQuestion = view.holdAtTop();
  });
  const stopFlushingOnHide = flushWhenPageHides(saver);
  onCleanup(() => {
    // Busy: our own command is on its way (its event can land before its reply), so this tab did send.
    props.onLeft?.({ filledIn: answers(), sentHere: settled() || busy() || proposed() });
    stopFlushingOnHide();
    letGoOfQuestion(settled() || props.block.status !== 'pending');
    if (settled() || props.block.status !== 'pending') saver.cancel();
    else saver.flush();
  });

  const announcement = () => (announced() ? announce(questions()) : '');

  return (
    <form
      ref={(element) => (view.form = element)}
      class="question-form__pending"
      aria-label={t('question.formLabel')}
      aria-busy={busy() ? 'true' : undefined}
      data-proposed={proposed() ? 'true' : undefined}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      onKeyDown={(event) => keyboard.onKeyDown(event)}
      onPointerDown={() => keyboard.onPointerDown()}
    >
      <div role="status" aria-live="polite" class="visually-hidden">
        {announcement()}
      </div>
      <QuestionNavigation
        questions={questions()}
        activeTab={state().activeTab}
        narrow={narrow()}
        isAnswered={(questionIndex) => isAnswered(answers()[questionIndex])}
        tabId={tabId}
        panelId={panelId}
        onActivate={activate}
        onStep={(tab) => {
          activate(tab);
          if (tab === reviewTab()) focusAnswer(tab);
        }}
      />
      <For each={questions()}>
        {(question, index) => (
          <div
            ref={(element) => (view.panels[index()] = element)}
            role={tabbed() ? 'tabpanel' : undefined}
            class="question-form__panel"
            id={panelId(index())}
            aria-labelledby={tabbed() ? tabId(index()) : undefined}
            hidden={state().activeTab !== index()}
          >
            <QuestionFieldset
              question={question}
              groupName={`${baseId}-question-${index()}`}
              selected={state().selected[index()] ?? []}
              otherChosen={state().otherChosen[index()] ?? false}
              otherText={state().otherText[index()] ?? ''}
              onPick={(label) => pickOption(index(), label, !keyboard.takeArrowFlag())}
              onPickOther={() => pickOther(index(), !keyboard.takeArrowFlag())}
              onOtherText={(text) => dispatch({ type: 'other-text-changed', questionIndex: index(), text })}
              onClear={() => {
                dispatch({ type: 'answer-cleared', questionIndex: index() });
                focusAnswer(index());
              }}
              otherTextRef={(element) => (otherTextElements[index()] = element)}
            />
          </div>
        )}
      </For>
      <Show when={!single()}>
        <div
          role={tabbed() ? 'tabpanel' : undefined}
          class="question-form__panel"
          id={panelId(reviewTab())}
          aria-labelledby={tabbed() ? tabId(reviewTab()) : undefined}
          hidden={state().activeTab !== reviewTab()}
        >
          <QuestionReview
            questions={questions()}
            answers={answers()}
            unansweredHeaders={confirmingSkip() ? unanswered().map((item) => item.question.header) : []}
            noticeRef={(element) => (skipNotice = element)}
            onChange={(questionIndex) => {
              activate(questionIndex);
              focusAnswer(questionIndex);
            }}
          />
        </div>
      </Show>
      <QuestionActions
        error={error()}
        busy={locked()}
        confirmingDismiss={confirmingDismiss()}
        skipping={confirmingSkip() && state().activeTab === reviewTab()}
        onSubmitAnyway={() => void submit(true)}
        onDismiss={() => void dismiss()}
        onDiscard={() => void dismiss(true)}
        onKeepEditing={() => {
          setConfirmingDismiss(false);
          focusAnswer(Math.min(state().activeTab, questions().length - 1));
        }}
        submitRef={(element) => (view.submitButton = element)}
      />
    </form>
  );
}
