import { For, Show } from 'solid-js';
import type { Question } from '../../schema/forms/question';
import { t } from '../i18n/i18n';

/**
 * The tab list: one tab per question, named exactly by its header (the ✓ of an answered question is
 * hidden from the name and given as a description instead), then "Review". ←/→, Home and End move and
 * activate tabs; only the active tab is in the Tab order.
 */
export function QuestionTabs(props: {
  /** A single question needs no tabs and no Review. */
  hidden?: boolean;
  questions: readonly Question[];
  activeTab: number;
  isAnswered: (questionIndex: number) => boolean;
  tabId: (tab: number) => string;
  panelId: (tab: number) => string;
  onActivate: (tab: number) => void;
}) {
  const answeredId = `${props.tabId(0)}-answered`;
  const reviewTab = () => props.questions.length;
  const tabElements: HTMLButtonElement[] = [];

  function onKeyDown(event: KeyboardEvent): void {
    const count = reviewTab() + 1;
    const current = props.activeTab;
    const next =
      event.key === 'ArrowRight' ? (current + 1) % count
      : event.key === 'ArrowLeft' ? (current - 1 + count) % count
      : event.key === 'Home' ? 0
      : event.key === 'End' ? count - 1
      : undefined;
    if (next === undefined) return;
    event.preventDefault();
    props.onActivate(next);
    tabElements[next]?.focus();
  }

  return (
    <Show when={!props.hidden}>
      <span id={answeredId} hidden>
        {t('question.answeredMark')}
      </span>
      <div role="tablist" aria-label={t('question.tabList')} class="question-form__tabs" onKeyDown={onKeyDown}>
        <For each={props.questions}>
          {(question, index) => (
            <button
              ref={(element) => (tabElements[index()] = element)}
              type="button"
              role="tab"
              class="question-form__tab"
              id={props.tabId(index())}
              aria-controls={props.panelId(index())}
              aria-selected={props.activeTab === index() ? 'true' : 'false'}
              aria-describedby={props.isAnswered(index()) ? answeredId : undefined}
              tabIndex={props.activeTab === index() ? 0 : -1}
              onClick={() => props.onActivate(index())}
            >
              <span dir="auto">{question.header}</span>
              <Show when={props.isAnswered(index())}>
                <span class="question-form__check" aria-hidden="true">
                  ✓
                </span>
              </Show>
            </button>
          )}
        </For>
        <button
          ref={(element) => (tabElements[reviewTab()] = element)}
          type="button"
          role="tab"
          class="question-form__tab question-form__tab--review"
          id={props.tabId(reviewTab())}
          aria-controls={props.panelId(reviewTab())}
          aria-selected={props.activeTab === reviewTab() ? 'true' : 'false'}
          tabIndex={props.activeTab === reviewTab() ? 0 : -1}
          onClick={() => props.onActivate(reviewTab())}
        >
          {t('question.reviewTab')}
        </button>
      </div>
    </Show>
  );
}
