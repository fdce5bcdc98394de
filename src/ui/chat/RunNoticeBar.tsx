import { createSignal, onCleanup } from 'solid-js';
import type { RunNotice } from '../../schema/events';
import { t } from '../i18n/i18n';

/** A transient note about the run ("Retrying in 4s…"), counting down to its next attempt. */
export function RunNoticeBar(props: { notice: RunNotice }) {
  const [now, setNow] = createSignal(Date.now());
  const timer = setInterval(() => setNow(Date.now()), 1000);
  onCleanup(() => clearInterval(timer));

  const text = () => {
    const retryAt = props.notice.retryAt;
    if (props.notice.kind === 'retrying' && retryAt !== undefined) {
      const seconds = Math.max(0, Math.ceil((retryAt - now()) / 1000));
      return t('notice.retrying', { seconds });
    }
    if (props.notice.kind === 'waiting_file') return t('notice.waitingFile');
    // Online but unreachable (a server that is down) is not "offline"; what the worker found is in the title.
    if (props.notice.kind === 'waiting_network') return navigator.onLine ? t('notice.serverUnreachable') : t('notice.waitingNetwork');
    return t('notice.retryingSoon');
  };

  return (
    <p class="run-notice" role="status" data-kind={props.notice.kind} title={props.notice.message}>
      {text()}
    </p>
  );
}
