import { Show } from 'solid-js';
import type { Question } from '../../schema/forms/question';
import { QuestionStepper } from './QuestionStepper';
import { QuestionTabs } from './QuestionTabs';

/** How the form moves between questions: tabs on a wide screen, the stepper on a narrow one, nothing for one question. */
export function QuestionNavigation(props: {
  questions: readonly Question[];
  activeTab: number;
  narrow: boolean;
  isAnswered: (questionIndex: number) => boolean;
  tabId: (tab: number) => string;
  panelId: (tab: number) => string;
  onActivate: (tab: number) => void;
  /** A step with the stepper's Previous or Next. */
  onStep: (tab: number) => void;
}) {
  const single = () => props.questions.length === 1;
  return (
    <>
      <QuestionTabs
        hidden={single() || props.narrow}
        questions={props.questions}
        activeTab={props.activeTab}
        isAnswered={(questionIndex) => props.isAnswered(questionIndex)}
        tabId={(tab) => props.tabId(tab)}
        panelId={(tab) => props.panelId(tab)}
        onActivate={(tab) => props.onActivate(tab)}
      />
      <Show when={!single() && props.narrow}>
        <QuestionStepper
          questions={props.questions}
          activeTab={props.activeTab}
          isAnswered={(questionIndex) => props.isAnswered(questionIndex)}
          onStep={(tab) => props.onStep(tab)}
        />
      </Show>
    </>
  );
}
