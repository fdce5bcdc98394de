/** What a key press means to the question form. */
type QuestionKeyAction =
  | { kind: 'dismiss' }
  /** Esc in the Other textbox: leave it, keep the form (dismissing cannot be undone). */
  | { kind: 'leave-text' }
  | { kind: 'submit' }
  | { kind: 'pick'; digit: number }
  /** An arrow on a radio or checkbox: the browser moves the choice; the form must not auto-advance on it. */
  | { kind: 'arrow' }
  | { kind: 'none' };

/** The facts about a key press and its target that decide its meaning. */
export interface QuestionKeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** An input method (Chinese) is composing: Enter, Esc and digits are its own then. */
  composing: boolean;
  target: 'text' | 'button' | 'choice' | 'other';
}

/** Maps a key press to the form's action: digits pick, Enter submits, Esc dismisses, all out of the user's way. */
export function questionKeyAction(press: QuestionKeyPress): QuestionKeyAction {
  if (press.composing) return { kind: 'none' };
  const inText = press.target === 'text';
  if (press.key === 'Escape') return inText ? { kind: 'leave-text' } : { kind: 'dismiss' };
  if (press.key === 'Enter') {
    // Shift+Enter is a new line in the Other text; a focused button (a tab, Dismiss, Change) does its own thing.
    if ((inText && press.shiftKey) || press.target === 'button') return { kind: 'none' };
    return { kind: 'submit' };
  }
  if (!inText && !press.ctrlKey && !press.metaKey && !press.altKey && /^[1-9]$/.test(press.key)) return { kind: 'pick', digit: Number(press.key) };
  if (press.key.startsWith('Arrow') && press.target === 'choice') return { kind: 'arrow' };
  return { kind: 'none' };
}

/** Classifies a DOM event's target for `questionKeyAction`. */
function keyTarget(element: EventTarget | null): QuestionKeyPress['target'] {
  if (element instanceof HTMLTextAreaElement || (element instanceof HTMLInputElement && element.type === 'text')) return 'text';
  if (element instanceof HTMLButtonElement) return 'button';
  if (element instanceof HTMLInputElement) return 'choice';
  return 'other';
}

/** Esc in the Other textbox: focus goes back to the question's last choice, its Other. */
function leaveOtherText(element: EventTarget | null): void {
  if (!(element instanceof HTMLElement)) return;
  const choices = element.closest('fieldset')?.querySelectorAll<HTMLInputElement>('input[type=radio], input[type=checkbox]');
  if (choices && choices.length > 0) choices[choices.length - 1]!.focus();
}

/**
 * The form's keyboard: Esc dismisses (or leaves the Other text), Enter submits, digits pick. It also remembers
 * whether the choice that just changed was moved by an arrow key: arrows move through a native radio group and
 * select as they go, which must not advance to the next question.
 */
export function createQuestionKeyboard(actions: { dismiss(): void; submit(): void; pick(digit: number): void }) {
  let arrowNavigating = false;
  return {
    onKeyDown(event: KeyboardEvent): void {
      arrowNavigating = false;
      const element = event.target;
      const { key, shiftKey, ctrlKey, metaKey, altKey } = event;
      // keyCode 229: an input method is composing (Chromium reports it before isComposing on the first key).
      const composing = event.isComposing || event.keyCode === 229;
      const action = questionKeyAction({ key, shiftKey, ctrlKey, metaKey, altKey, composing, target: keyTarget(element) });
      if (action.kind === 'none') return;
      if (action.kind === 'arrow') {
        arrowNavigating = true;
        return;
      }
      event.preventDefault();
      if (action.kind === 'dismiss') actions.dismiss();
      else if (action.kind === 'submit') actions.submit();
      else if (action.kind === 'pick') actions.pick(action.digit);
      else leaveOtherText(element);
    },
    onPointerDown(): void {
      arrowNavigating = false;
    },
    /** Whether the last choice change came from an arrow key; reading it clears it. */
    takeArrowFlag(): boolean {
      const value = arrowNavigating;
      arrowNavigating = false;
      return value;
    },
  };
}
