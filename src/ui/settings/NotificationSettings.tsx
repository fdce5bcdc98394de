import { createSignal, Match, Switch } from 'solid-js';
import {
  notificationShowsTitle,
  notificationState,
  setNotificationShowsTitle,
  turnNotificationsOff,
  turnNotificationsOn,
  type NotificationState,
} from '../attention/notification-preferences';
import { t } from '../i18n/i18n';

/**
 * Settings → "Notifications": the browser's permission is asked only from this button, never on load. Once on, a
 * request for the user that arrives while no tab of Parley is visible is announced (see attention.ts), saying only what
 * waits unless "Show the conversation's title" is checked (this device's choice).
 */
export function NotificationSettings() {
  const [state, setState] = createSignal<NotificationState>(notificationState());
  return (
    <section class="settings-section" aria-labelledby="notifications-title">
      <h2 id="notifications-title">{t('notify.heading')}</h2>
      <p>{t('notify.explain')}</p>
      <Switch>
        <Match when={state() === 'off'}>
          <button type="button" class="button" onClick={() => void turnNotificationsOn().then(setState)}>
            {t('notify.turnOn')}
          </button>
        </Match>
        <Match when={state() === 'on'}>
          <p role="status">{t('notify.on')}</p>
          <button
            type="button"
            class="button"
            onClick={() => {
              turnNotificationsOff();
              setState(notificationState());
            }}
          >
            {t('notify.turnOff')}
          </button>
          <label class="checkbox-field notification-title-option">
            <input
              type="checkbox"
              checked={notificationShowsTitle()}
              aria-describedby="notifications-title-hint"
              onChange={(event) => setNotificationShowsTitle(event.currentTarget.checked)}
            />
            {t('notify.showTitle')}
          </label>
          <small class="field-hint notification-title-hint" id="notifications-title-hint">
            {t('notify.showTitleHint')}
          </small>
        </Match>
        <Match when={state() === 'blocked'}>
          <p>{t('notify.blocked')}</p>
        </Match>
        <Match when={state() === 'unsupported'}>
          <p>{t('notify.unsupported')}</p>
        </Match>
      </Switch>
    </section>
  );
}
