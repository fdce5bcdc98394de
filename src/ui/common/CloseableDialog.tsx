import type { JSX } from 'solid-js';
import { Portal } from 'solid-js/web';
import { t } from '../i18n/i18n';
import { useModalFocus } from './modal-focus';

/**
 * A modal dialog with one way out, "Close": its button (focused on opening), Esc (which does nothing else, e.g. it does
 * not also stop a reply being written: see KeyboardShortcuts), or a tap on the backdrop beside it.
 */
export function CloseableDialog(props: { class: string; labelledBy: string; onClose(): void; children: JSX.Element }) {
  let closeButton!: HTMLButtonElement;
  useModalFocus(() => closeButton.focus());
  return (
    <Portal>
      <div class="dialog-backdrop" onClick={(event) => event.target === event.currentTarget && props.onClose()}>
        <div
          class={`dialog ${props.class}`}
          role="dialog"
          aria-modal="true"
          aria-labelledby={props.labelledBy}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            event.preventDefault();
            props.onClose();
          }}
        >
          {props.children}
          <div class="dialog-actions">
            <button ref={closeButton} type="button" class="button" onClick={() => props.onClose()}>
              {t('keys.close')}
            </button>
          </div>
        </div>
      </div>
    </Portal>
  );
}
