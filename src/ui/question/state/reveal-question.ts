/**
 * Keeping the question readable from the top. The messages log follows the newest text to its end, which for a
 * tall form shows its last option and Submit; a question is read from its text downwards. Only the log (the
 * nearest scrolling ancestor) is scrolled, never the page behind it (no `scrollIntoView`).
 */

/** Room left above the form's top edge, in px. */
const TOP_GAP = 8;
const USER_INPUTS = ['pointerdown', 'touchstart', 'wheel', 'keydown'] as const;
/** How long, and how many times, the form is held at the top after it arrives (see holdQuestionAtTop). */
const MAX_HOLD_MS = 2000;
const MAX_ALIGNMENTS = 40;

/** The nearest ancestor that scrolls vertically: the messages log. */
function scrollContainer(element: HTMLElement): HTMLElement | undefined {
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    const overflow = getComputedStyle(parent).overflowY;
    if (overflow === 'auto' || overflow === 'scroll') return parent;
  }
  return undefined;
}

/** Scrolls `container` so that `element`'s top edge is at the container's top (as far as it can scroll). */
function alignTop(element: HTMLElement, container: HTMLElement): void {
  const offset = element.getBoundingClientRect().top - container.getBoundingClientRect().top - TOP_GAP;
  const target = Math.max(0, Math.min(container.scrollTop + offset, container.scrollHeight - container.clientHeight));
  if (Math.abs(target - container.scrollTop) >= 1) container.scrollTop = target;
}

/** Whether `element` lies wholly inside the container's visible part. */
function isInView(element: HTMLElement, container: HTMLElement): boolean {
  const box = element.getBoundingClientRect();
  const view = container.getBoundingClientRect();
  return box.top >= view.top && box.bottom <= view.bottom;
}

/**
 * After a step to another question: if its text or the row of tabs (the stepper on a phone) above it is not wholly in
 * view, bring the form's top to the log's top. Done again after the log's own observer, which follows the changed
 * content to the end when the user was near it (tapping the last option of a long question is exactly that).
 */
function revealQuestion(form: HTMLElement, questionText: HTMLElement | undefined): void {
  const container = scrollContainer(form);
  if (!container) return;
  const steps = form.querySelector<HTMLElement>('[role="tablist"], .question-stepper') ?? undefined;
  const reveal = () => {
    const shown = (element: HTMLElement | undefined) => element !== undefined && isInView(element, container);
    if (!shown(questionText) || (steps !== undefined && steps.offsetHeight > 0 && !shown(steps))) alignTop(form, container);
  };
  reveal();
  queueMicrotask(reveal);
}

/**
 * On arrival: puts the form's top at the top of the log, and keeps it there each time the log changes (the log
 * follows new content to its end) until the user touches, scrolls or types. Scrolling from elsewhere (a screen
 * reader, find in page) is left alone. Returns a function that lets go and, when `followNewest` is true (the
 * question was resolved), goes back to following the newest text.
 */
function holdQuestionAtTop(form: HTMLElement): (followNewest: boolean) => void {
  let container: HTMLElement | undefined;
  // Bounded: a windowed log re-renders its rows when scrolled, which would call this observer again without end (and
  // keep the form from ever standing still under a finger). The hold is for the moments right after arrival.
  let alignments = 0;
  const startedAt = performance.now();
  // Created after the log's own observer, so it runs after the log has scrolled to its end.
  const observer = new MutationObserver(() => {
    if (!container) return;
    alignments += 1;
    if (alignments > MAX_ALIGNMENTS || performance.now() - startedAt > MAX_HOLD_MS) return release();
    alignTop(form, container);
  });
  // The log also scrolls to its end without changing the DOM (its rows measured after a reload): held there too.
  const onScroll = () => {
    if (!container) return;
    alignments += 1;
    if (alignments > MAX_ALIGNMENTS || performance.now() - startedAt > MAX_HOLD_MS) return release();
    alignTop(form, container);
  };
  const release = () => {
    observer.disconnect();
    container?.removeEventListener('scroll', onScroll);
    for (const type of USER_INPUTS) container?.removeEventListener(type, release);
  };
  // After layout: the form and the log's own scroll to the end have both happened by the next frame.
  const frame = requestAnimationFrame(() => {
    container = scrollContainer(form);
    if (!container) return;
    alignTop(form, container);
    observer.observe(container, { childList: true, subtree: true, characterData: true });
    container.addEventListener('scroll', onScroll, { passive: true });
    for (const type of USER_INPUTS) container.addEventListener(type, release, { passive: true });
  });
  return (followNewest) => {
    cancelAnimationFrame(frame);
    release();
    const log = container;
    // The reply to the answers is written below: show the end of the log again so the log follows it.
    if (followNewest && log) requestAnimationFrame(() => (log.scrollTop = log.scrollHeight));
  };
}

/** Scrolls the log just enough that `element` is not under the room kept at the bottom (the sticky action bar). */
function keepAboveBottom(element: HTMLElement, bottomRoom: number): void {
  const container = scrollContainer(element);
  if (!container) return;
  const overlap = element.getBoundingClientRect().bottom - (container.getBoundingClientRect().bottom - bottomRoom);
  if (overlap > 0) container.scrollTop += overlap;
}

/**
 * Focus and scrolling for one form: its elements are set as they render. Focus never lets the browser scroll
 * the page; only the log scrolls, as little as it must.
 */
export function createFormView() {
  const view = {
    form: undefined as HTMLElement | undefined,
    submitButton: undefined as HTMLButtonElement | undefined,
    /** The panel of each question, by index. */
    panels: [] as HTMLElement[],
    /** After a step to another tab: keeps that question's text in view. */
    reveal(tab: number): void {
      if (view.form) revealQuestion(view.form, view.panels[tab]?.querySelector('legend') ?? undefined);
    },
    holdAtTop(): (followNewest: boolean) => void {
      return view.form ? holdQuestionAtTop(view.form) : () => undefined;
    },
    focusInForm(element: HTMLElement | undefined): void {
      if (!element) return;
      element.focus({ preventScroll: true });
      const actionBar = view.form?.querySelector<HTMLElement>('.question-form__actions');
      keepAboveBottom(element, actionBar?.offsetHeight ?? 0);
    },
    /** Moves focus into a tab's content so a screen reader reads the question (or lands on Submit in Review). */
    focusAnswer(tab: number, isReview: boolean): void {
      if (isReview) {
        view.submitButton?.focus({ preventScroll: true });
        return;
      }
      const inputs = [...(view.panels[tab]?.querySelectorAll<HTMLInputElement>('input') ?? [])];
      view.focusInForm(inputs.find((input) => input.checked) ?? inputs[0]);
    },
    focusOption(questionIndex: number, optionIndex: number): void {
      view.focusInForm(view.panels[questionIndex]?.querySelectorAll<HTMLInputElement>('input')[optionIndex]);
    },
  };
  return view;
}
