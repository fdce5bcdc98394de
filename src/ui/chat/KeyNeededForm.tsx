import { createSignal } from 'solid-js';
import type { ProfileView } from '../../schema/records';
import { useApp } from '../state/app-context';
import { settle } from '../common/error-report';
import { t } from '../i18n/i18n';

/**
 * A profile synced from another device without its key (README, "Sync between your devices"): its key is typed here,
 * kept on this device only, and the conversation goes on. Shown while its run stopped for want of the key.
 */
export function KeyNeededForm(props: { profile: ProfileView; conversationId: string }) {
  const app = useApp();
  const [key, setKey] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  const inputId = () => `key-needed-${props.conversationId}`;

  async function useKey(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const apiKey = key().trim();
    if (!apiKey || busy()) return;
    setBusy(true);
    const { apiKeyMasked: _masked, keyNeeded: _needed, temperature, maxOutputTokens, instructions, acceptsImages, ...profile } = props.profile;
    const saved = await settle(
      app.client.send({
        type: 'profiles.save',
        profile: { ...profile, apiKey, ...(instructions ? { instructions } : {}), ...(temperature != null ? { temperature } : {}), ...(maxOutputTokens != null ? { maxOutputTokens } : {}), ...(acceptsImages !== undefined ? { acceptsImages } : {}) },
      }),
    );
    if (saved) {
      setKey('');
      await settle(app.client.send({ type: 'run.continue', conversationId: props.conversationId }));
    }
    setBusy(false);
  }

  return (
    <form class="key-needed" onSubmit={(event) => void useKey(event)}>
      <p class="key-needed__text">{t('sync.keyNeeded')}</p>
      <label class="key-needed__label" for={inputId()}>
        {t('sync.keyFor', { name: props.profile.name })}
      </label>
      <input id={inputId()} class="input key-needed__input" type="password" autocomplete="off" value={key()} onInput={(event) => setKey(event.currentTarget.value)} />
      <button type="submit" class="button primary" disabled={busy() || key().trim() === ''}>
        {t('sync.useKey')}
      </button>
    </form>
  );
}
