import { createSignal, createUniqueId, For, onMount, Show } from 'solid-js';
import { SCRIPTED_PROFILE_ID } from '../../schema/limits';
import type { ProfileView, ProviderKind } from '../../schema/records';
import { PROVIDER_KINDS } from '../../schema/provider-kinds';
import { useApp } from '../state/app-context';
import { settle } from '../common/error-report';
import type { Locale } from '../i18n/dictionary';
import { locale, setLocale, t } from '../i18n/i18n';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { DataSettings } from './DataSettings';
import { McpSettings } from '../mcp/McpSettings';
import { NotificationSettings } from './NotificationSettings';
import { SyncSettings } from '../sync/SyncSettings';
import { profileName } from './profile-name';
import { chooseTheme, storedTheme, type Theme } from '../theme';

const THEMES: readonly Theme[] = ['system', 'light', 'dark'];
import { ProfileForm } from './ProfileForm';
import { KeyboardShortcutsButton } from '../shell/KeyboardShortcuts';

/** What the profile form edits; a new object remounts the form with fresh fields. */
interface FormTarget {
  kind: ProviderKind;
  profile?: ProfileView;
}

const LANGUAGES: ReadonlyArray<{ locale: Locale; label: string }> = [
  { locale: 'en', label: 'English' },
  { locale: 'zh-CN', label: '简体中文' },
];

/** The Settings view: language, the list of model profiles, and the form for one profile. */
export function Settings() {
  const app = useApp();
  const languageId = `language-${createUniqueId()}`;
  const [formTarget, setFormTarget] = createSignal<FormTarget>();
  const [deleting, setDeleting] = createSignal<ProfileView>();
  const defaultProfileId = () => app.state.settings?.defaultProfileId ?? SCRIPTED_PROFILE_ID;

  function targetFor(profileId: string): FormTarget {
    const profile = app.state.profiles.find((candidate) => candidate.id === profileId);
    return profile ? { kind: profile.kind, profile } : { kind: 'scripted' };
  }

  onMount(async () => {
    // Read fresh: another tab may have changed them while this one was elsewhere.
    const [settings, profiles] = await Promise.all([
      settle(app.client.send({ type: 'settings.get' })),
      settle(app.client.send({ type: 'profiles.list' })),
    ]);
    if (settings) app.dispatch({ type: 'settings-changed', settings });
    if (profiles) app.dispatch({ type: 'profiles-changed', profiles });
    if (!formTarget()) setFormTarget(targetFor(defaultProfileId()));
  });

  async function changeLanguage(next: Locale) {
    void setLocale(next);
    // Stored settings reach the store as the worker's event, never from the reply (one writer).
    await settle(app.client.send({ type: 'settings.update', locale: next }));
  }

  async function useProfile(profileId: string) {
    await settle(app.client.send({ type: 'settings.update', defaultProfileId: profileId }));
  }

  async function deleteProfile(profile: ProfileView) {
    setDeleting(undefined);
    const result = await settle(app.client.send({ type: 'profiles.delete', profileId: profile.id }));
    if (!result) return;
    if (formTarget()?.profile?.id === profile.id) setFormTarget(targetFor(defaultProfileId()));
  }

  // A stable order: the default first, then by name, whatever order the worker lists them in.
  const orderedProfiles = () =>
    [...app.state.profiles].sort((a, b) => Number(b.id === defaultProfileId()) - Number(a.id === defaultProfileId()) || a.name.localeCompare(b.name, locale()) || a.id.localeCompare(b.id));

  const themeId = createUniqueId();
  const [theme, setTheme] = createSignal<Theme>(storedTheme());

  return (
    <section class="settings" aria-labelledby="settings-title">
      <h1 id="settings-title">{t('settings.title')}</h1>

      <div class="settings-section">
        <div class="field">
          <label for={languageId}>{t('settings.language')}</label>
          <select id={languageId} class="select" value={locale()} onChange={(event) => void changeLanguage(event.currentTarget.value as Locale)}>
            <For each={LANGUAGES}>
              {(language) => (
                <option value={language.locale} selected={language.locale === locale()}>
                  {language.label}
                </option>
              )}
            </For>
          </select>
        </div>
        <div class="field">
          <label for={themeId}>{t('settings.theme')}</label>
          <select
            id={themeId}
            class="select"
            onChange={(event) => {
              chooseTheme(event.currentTarget.value as Theme);
              setTheme(event.currentTarget.value as Theme);
            }}
          >
            <For each={THEMES}>
              {(choice) => (
                <option value={choice} selected={choice === theme()}>
                  {t(`settings.theme.${choice}`)}
                </option>
              )}
            </For>
          </select>
        </div>
        <div class="form-row">
          <KeyboardShortcutsButton class="settings-shortcuts" />
        </div>
      </div>

      <div class="settings-section">
        <h2>{t('settings.profiles')}</h2>
        <ul class="profile-list">
          <For each={orderedProfiles()}>
            {(profile) => (
              <li class="profile-item" classList={{ default: profile.id === defaultProfileId() }}>
                <span class="profile-name">{profileName(profile)}</span>
                <span class="profile-kind">{t(PROVIDER_KINDS[profile.kind].labelKey)}</span>
                <Show when={profile.id === defaultProfileId()}>
                  <span class="badge">{t('settings.default')}</span>
                </Show>
                <span class="profile-actions">
                  <Show when={profile.id !== defaultProfileId()}>
                    <button type="button" class="button small" aria-label={t('settings.useProfile', { name: profileName(profile) })} onClick={() => void useProfile(profile.id)}>
                      {t('settings.use')}
                    </button>
                  </Show>
                  <button type="button" class="button small" aria-label={t('settings.editProfile', { name: profileName(profile) })} onClick={() => setFormTarget(targetFor(profile.id))}>
                    {t('settings.edit')}
                  </button>
                  <Show when={profile.id !== SCRIPTED_PROFILE_ID}>
                    <button type="button" class="button small" aria-label={t('settings.deleteProfile', { name: profile.name })} onClick={() => setDeleting(profile)}>
                      {t('settings.delete')}
                    </button>
                  </Show>
                </span>
              </li>
            )}
          </For>
        </ul>
        <button type="button" class="button" onClick={() => setFormTarget({ kind: 'openai-compatible' })}>
          {t('settings.addProfile')}
        </button>
      </div>

      <div class="settings-section">
        <Show when={formTarget()} keyed>
          {(target) => <ProfileForm profile={target.profile} kind={target.kind} script={app.state.settings?.script ?? ''} />}
        </Show>
      </div>

      <Show when={deleting()}>
        {(profile) => (
          <ConfirmDialog
            title={t('settings.deleteProfileTitle')}
            body={t('settings.deleteProfileBody', { name: profile().name })}
            confirmLabel={t('dialog.delete')}
            onConfirm={() => void deleteProfile(profile())}
            onCancel={() => setDeleting(undefined)}
          />
        )}
      </Show>
      <McpSettings />
      <NotificationSettings />
      <SyncSettings />
      <DataSettings />
    </section>
  );
}
