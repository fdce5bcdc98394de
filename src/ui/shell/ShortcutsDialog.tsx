import { For } from 'solid-js';
import { t, type MessageKey } from '../i18n/i18n';
import { CloseableDialog } from '../common/CloseableDialog';

const SHORTCUTS: Array<{ keys: string; key: MessageKey }> = [
  { keys: 'Ctrl/⌘ + Shift + O', key: 'keys.newConversation' },
  { keys: 'Shift + Esc', key: 'keys.focusComposer' },
  { keys: 'Esc', key: 'keys.stop' },
  { keys: '?', key: 'keys.help' },
];

/** The dialog "Keyboard shortcuts" (KeyboardShortcuts.tsx opens it). */
export function ShortcutsDialog(props: { onClose(): void }) {
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
