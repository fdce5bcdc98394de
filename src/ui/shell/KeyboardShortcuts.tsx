import { createSignal, lazy, onCleanup, onMount, Show, Suspense } from 'solid-js';
import { t, withStrings } from '../i18n/i18n';
import './keyboard-shortcuts.css';

/** The dialog's code loads when it is about to be wanted: a pointer over or the focus on its button, or "?". */
const ShortcutsDialog = lazy(() => withStrings('views', () => import('./ShortcutsDialog')).then((module) => ({ default: module.ShortcutsDialog })));

/** What the app does for a shortcut; the shell supplies each (it knows the route and the conversation). */
interface ShortcutActions {
  newConversation(): void;
  focusComposer(): void;
  /** Stops the reply being written in the open conversation; false when none is. */
  stopReply(): boolean;
}

// One dialog for the app: "?" opens it, and so do its buttons in Settings and in "Conversation actions" (a phone has
// no "?"). Closed, it gives the focus back to what had it.
const [open, setOpen] = createSignal(false);

/** The button that opens the dialog, for Settings and the conversation's actions (`class` places it). */
export function KeyboardShortcutsButton(props: { class?: string; onBeforeOpen?: () => void }) {
  return (
    <button
      type="button"
      class={props.class ? `button ${props.class}` : 'button'}
      aria-haspopup="dialog"
      onPointerEnter={() => void ShortcutsDialog.preload()}
      onFocus={() => void ShortcutsDialog.preload()}
      onClick={() => {
        props.onBeforeOpen?.();
        setOpen(true);
      }}
    >
      {t('keys.title')}
    </button>
  );
}

/** True while the user types into a field: "?" is then a character, not a shortcut. */
function typing(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element && (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName));
}

/**
 * The shortcuts a ChatGPT user knows: Ctrl/⌘+Shift+O for a new conversation, Shift+Esc to the composer, Esc stops a
 * reply being written, "?" lists them in a dialog "Keyboard shortcuts" (as its buttons do). A key another control
 * already handled (a dialog's Esc, the question form's keys) is left to it.
 */
export function KeyboardShortcuts(props: { actions: ShortcutActions }) {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.isComposing) return;
    const command = event.ctrlKey || event.metaKey;
    if (command && event.shiftKey && event.key.toLowerCase() === 'o') {
      event.preventDefault();
      props.actions.newConversation();
    } else if (event.key === 'Escape' && event.shiftKey) {
      event.preventDefault();
      props.actions.focusComposer();
    } else if (event.key === 'Escape' && !open()) {
      if (props.actions.stopReply()) event.preventDefault();
    } else if (event.key === '?' && !command && !typing(event.target) && !document.querySelector('[role="dialog"]')) {
      event.preventDefault();
      setOpen(true);
    }
  };
  onMount(() => document.addEventListener('keydown', onKeyDown));
  onCleanup(() => document.removeEventListener('keydown', onKeyDown));
  return (
    <Show when={open()}>
      <Suspense fallback={null}>
        <ShortcutsDialog onClose={() => setOpen(false)} />
      </Suspense>
    </Show>
  );
}
