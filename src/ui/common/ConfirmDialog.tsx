import { createUniqueId, Show } from 'solid-js';
import { Portal } from 'solid-js/web';
import { t } from '../i18n/i18n';
import { useModalFocus } from './modal-focus';

interface ConfirmDialogProps {
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
  /** A second way to go on, between Cancel and the confirm button (e.g. "Turn off and keep the copy"). */
  alternative?: { label: string; onChoose(): void };
}

/**
 * A modal question with Cancel and a confirm button (and an `alternative` when there are two ways to go on). The app behind it is made inert and hidden from
 * assistive technology, so the dialog's buttons are the only ones a user (or a test) can reach.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const titleId = `dialog-title-${createUniqueId()}`;
  const bodyId = `dialog-body-${createUniqueId()}`;
  let cancelButton!: HTMLButtonElement;

  useModalFocus(() => cancelButton.focus());

  return (
    <Portal>
      <div class="dialog-backdrop">
        <div
          class="dialog"
          role="dialog"
          aria-modal="true"
          aria-labelledby={titleId}
          aria-describedby={bodyId}
          onKeyDown={(event) => {
            if (event.key === 'Escape') props.onCancel();
          }}
        >
          <h2 id={titleId}>{props.title}</h2>
          <p id={bodyId}>{props.body}</p>
          <div class="dialog-actions">
            <button ref={cancelButton} type="button" class="button" onClick={() => props.onCancel()}>
              {t('dialog.cancel')}
            </button>
            <Show when={props.alternative}>
              {(alternative) => (
                <button type="button" class="button" onClick={() => alternative().onChoose()}>
                  {alternative().label}
                </button>
              )}
            </Show>
            <button type="button" class="button danger" onClick={() => props.onConfirm()}>
              {props.confirmLabel}
            </button>
          </div>
        </div>
      </div>
    </Portal>
  );
}
