import { createSignal, For, onCleanup, onMount, Show } from 'solid-js';
import { t, type MessageKey } from '../i18n/i18n';
import './keyboard-shortcuts.css';
import { CloseableDialog } from '../common/CloseableDialog';

/** What the app does for a shortcut; the shell supplies each (it knows the route and the conversation). */
interface ShortcutActions {
  newConversation(): void;
  focusComposer(): void;
  /** Stops the reply being written in the open conversation; false when none is. */
  stopReply(): boolean;
}

const SHORTCUTS: Array<{ keys: string; key: MessageKey }> = [
  { keys: 'Ctrl/⌘ + Shift + O', key: 'keys.newConversation' },
  { keys: 'Shift + Esc', key: 'keys.focusComposer' },
  { keys: 'Esc', key: 'keys.stop' },
  { keys: '?', key: 'keys.help' },
];

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
      <ShortcutsDialog onClose={() => setOpen(false)} />
    </Show>
  );
}

function ShortcutsDialog(props: { onClose(): void }) {
  return (
    <CloseableDialog class="shortcuts-dialog" labelledBy="shortcuts-title" onClose={props.onClose}>
      <h2 id="shortcuts-title">{t('keys.title')}</h2>
      <dl class="shortcuts-list">
        <For each={SHORTCUTS}>
          {(shortcut) => (
            <>
              <dt>
                <kbd>{shortcut.keys}</kbd>
              </dt>
              <dd>{t(shortcut.key)}</dd>
            </>
          )}
        </For>
      </dl>
    </CloseableDialog>
  );
}
