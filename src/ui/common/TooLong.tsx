import { Show } from 'solid-js';
import { MESSAGE_TEXT_LIMIT } from '../../schema/limits';
import { locale, t } from '../i18n/i18n';

/** Whether a message's text is over what a message holds: the worker would refuse it, so it is said before Send. */
export const tooLong = (text: string): boolean => text.trim().length > MESSAGE_TEXT_LIMIT;

/** "This message is N characters long; a message holds at most 100,000…", shown while `text` is over the limit. */
export function TooLongAlert(props: { text: string; id: string }) {
  return (
    <Show when={tooLong(props.text)}>
      <p class="too-long" id={props.id} role="alert">
        {t('composer.tooLong', { count: props.text.trim().length.toLocaleString(locale()), limit: MESSAGE_TEXT_LIMIT.toLocaleString(locale()) })}
      </p>
    </Show>
  );
}
