import { createSignal, useContext } from 'solid-js';
import { AppContext } from '../state/app-context';
import { wholeMessage } from './whole-message';
import type { Message } from '../../schema/records';
import { copyText } from './clipboard';
import { t } from '../i18n/i18n';

/** The message as written (Markdown for a reply): its text blocks, in order. */
export function messageSource(message: Message): string {
  return message.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n\n');
}

/**
 * Button "Copy" in a message's actions row: puts the message's Markdown source on the clipboard, and a status says
 * "Copied" (or why not). The source is read at the click, so a reply still streaming costs nothing per token.
 */
export function CopyMessage(props: { message: Message }) {
  const app = useContext(AppContext);
  const [status, setStatus] = createSignal('');
  async function copy() {
    setStatus('');
    // The page holds long texts clipped (schema/limits.ts PAGE_TEXT_LIMIT): Copy takes the message as stored.
    const message = app ? await wholeMessage(app.client, props.message).catch(() => undefined) : props.message;
    setStatus(message && (await copyText(messageSource(message))) ? t('actions.copied') : t('actions.copyFailed'));
  }
  return (
    <>
      <button type="button" class="button icon-button small" aria-label={t('actions.copy')} title={t('actions.copy')} onClick={() => void copy()}>
        <svg class="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">
          <rect x="9" y="9" width="11" height="11" rx="2" />
          <path d="M5 15V5a2 2 0 0 1 2-2h10" />
        </svg>
      </button>
      <span class="message-copy-status" role="status">
        {status()}
      </span>
    </>
  );
}
