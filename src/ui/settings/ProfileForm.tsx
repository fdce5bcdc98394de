import { createSignal, createUniqueId, For, lazy, Show } from 'solid-js';
import { SCRIPTED_PROFILE_ID } from '../../schema/limits';
import type { ProfileView, ProviderKind } from '../../schema/records';
import { PROVIDER_KIND_NAMES, PROVIDER_KINDS, providerKind } from '../../schema/provider-kinds';
import type { ProfileInput } from '../../schema/commands';
import { useApp } from '../state/app-context';
import { settle } from '../common/error-report';
import { describeError, describeTestResult, type ErrorWords } from '../common/error-words';
import { t } from '../i18n/i18n';
import { ErrorDetail } from '../common/ErrorDetail';
import { originOf } from '../common/origin';
import { isUsableModelSource } from './model-url';
import { profileName as shownProfileName } from './profile-name';
import { ProfileConnectionFields } from './ProfileConnectionFields';
import { ProfileOptionFields } from './ProfileOptionFields';
import '../chat/instructions.css';
import { WireError } from '../../schema/wire-error';

interface ProfileFormProps {
  /** The profile being edited; absent for a new one (or the scripted model). */
  profile?: ProfileView | undefined;
  kind: ProviderKind;
  /** The scripted model's current script. */
  script: string;
}

/** Loaded when first shown, so the app's first load does not grow with it. */
const LocalModelSettings = lazy(() => import('./LocalModelSettings').then((module) => ({ default: module.LocalModelSettings })));

/**
 * Edits one model profile, with the fields its kind's form asks for (`PROVIDER_KINDS`): "Scripted" edits the built-in
 * scripted model's JSON script (checked before saving); a connection edits name, base URL, key and model, with "Test
 * connection" listing models; the in-browser model its stored model. Saving makes the profile the default for
 * conversations that name none.
 */
export function ProfileForm(props: ProfileFormProps) {
  const app = useApp();
  const idPrefix = `profile-${createUniqueId()}`;
  const [kind, setKind] = createSignal<ProviderKind>(props.kind);
  const [profileId, setProfileId] = createSignal(props.profile?.kind === props.kind ? props.profile?.id : undefined);
  const [name, setName] = createSignal(props.profile?.name ?? '');
  const [baseUrl, setBaseUrl] = createSignal(props.profile?.baseUrl ?? '');
  const [apiKey, setApiKey] = createSignal('');
  const [maskedKey, setMaskedKey] = createSignal(props.profile?.apiKeyMasked ?? '');
  // Which server the stored key belongs to: edited elsewhere, the worker drops it, so the form stops showing it.
  const [keyServer, setKeyServer] = createSignal({ kind: props.profile?.kind, origin: originOf(props.profile?.baseUrl ?? '') });
  const storedKeyApplies = () => keyServer().kind === kind() && keyServer().origin === originOf(baseUrl().trim());
  const [model, setModel] = createSignal(props.profile?.model ?? '');
  const [instructions, setInstructions] = createSignal(props.profile?.instructions ?? '');
  const [temperature, setTemperature] = createSignal(props.profile?.temperature?.toString() ?? '');
  const [maxOutputTokens, setMaxOutputTokens] = createSignal(props.profile?.maxOutputTokens?.toString() ?? '');
  const [acceptsImages, setAcceptsImages] = createSignal(props.profile?.acceptsImages ?? true);
  const [script, setScript] = createSignal(props.script);
  const [models, setModels] = createSignal<string[]>([]);
  const [testResult, setTestResult] = createSignal<ErrorWords>({ text: '' });
  const [error, setError] = createSignal<ErrorWords>();
  const [saved, setSaved] = createSignal(false);
  const [busy, setBusy] = createSignal(false);
  // After a save: the profile new conversations now use, said beside Save.
  const [defaultNote, setDefaultNote] = createSignal('');
  const [downloadSlot, setDownloadSlot] = createSignal<HTMLElement>();
  /** What Save will write: the Built-in demo's script, this saved profile, or a new one. */
  const target = () => {
    if (form() === 'script') return t('settings.editing', { name: profileName(SCRIPTED_PROFILE_ID) || t(PROVIDER_KINDS.scripted.labelKey) });
    const id = profileId();
    return id ? t('settings.editing', { name: profileName(id) || name() }) : t('settings.newProfile');
  };
  /** A saved profile's name as the UI shows it (the Built-in demo's in the UI's language); empty when there is none. */
  const profileName = (id: string) => {
    const profile = app.state.profiles.find((candidate) => candidate.id === id);
    return profile ? shownProfileName(profile) : '';
  };
  const provider = () => PROVIDER_KINDS[kind()];
  const form = () => providerKind(kind()).form;

  function changeKind(next: ProviderKind) {
    // A connection may switch between the remote protocols; any other change of form starts a new profile.
    if (form() !== 'connection' || providerKind(next).form !== 'connection') {
      setProfileId(undefined);
      setMaskedKey('');
    }
    setKind(next);
    setError(undefined);
    setSaved(false);
    setDefaultNote('');
    setTestResult({ text: '' });
  }

  function profileInput(): ProfileInput {
    const input: ProfileInput = {
      name: name().trim() || t(provider().labelKey),
      kind: kind(),
      baseUrl: baseUrl().trim(),
      model: model().trim(),
    };
    const id = profileId();
    if (id) input.id = id;
    if (apiKey().trim()) input.apiKey = apiKey().trim();
    if (instructions().trim()) input.instructions = instructions().trim();
    // Empty means the provider's default; a number the browser's field accepted is in range (min, max, step).
    input.temperature = temperature().trim() === '' ? null : Number(temperature());
    input.maxOutputTokens = maxOutputTokens().trim() === '' ? null : Math.round(Number(maxOutputTokens()));
    if (providerKind(kind()).images === 'choice') input.acceptsImages = acceptsImages();
    return input;
  }

  async function saveScript() {
    // The command goes at once: a conversation started right after Save must already use this script. (The script used
    // to be checked here first, with a validator loaded on demand; under load, "New conversation" got to the worker
    // before the save.) The worker checks it with the same schema and refuses a broken one before anything is saved.
    try {
      await app.client.send({ type: 'settings.update', script: script(), defaultProfileId: SCRIPTED_PROFILE_ID, demoInstructions: instructions().trim() });
      setSaved(true);
      setDefaultNote(t('settings.newConversationsUse', { name: profileName(SCRIPTED_PROFILE_ID) || t(PROVIDER_KINDS.scripted.labelKey) }));
    } catch (failure) {
      // Beside the script; any other failure was already reported as a toast.
      if (failure instanceof WireError && failure.reason === 'script_invalid') setError(describeError(failure));
    }
  }

  async function restoreScript() {
    setError(undefined);
    const settings = await settle(app.client.send({ type: 'settings.restoreScript' }));
    if (!settings) return;
    setScript(settings.script);
    setSaved(true);
  }

  async function saveProfile() {
    // The worker's fetch can only download http(s); the URL field's own check already says so, below Save.
    if (form() === 'local-model' && model().trim() !== '' && !isUsableModelSource(model().trim())) return;
    const isNew = !profileId();
    const profile = await app.client.send({ type: 'profiles.save', profile: profileInput() }).catch((failure: unknown) => {
      // A profile without a model is said beside the form; any other failure was already reported as a toast.
      if (failure instanceof WireError && failure.reason === 'profile_no_model') setError(describeError(failure));
      return undefined;
    });
    if (!profile) return;
    setProfileId(profile.id);
    setMaskedKey(profile.apiKeyMasked);
    setKeyServer({ kind: profile.kind, origin: originOf(profile.baseUrl) });
    setApiKey('');
    // A profile just added is what the user means to talk to: new conversations use it (said beside Save). Conversations
    // already made keep the profile they were made with; editing a profile never changes the default.
    if (isNew && !(await settle(app.client.send({ type: 'settings.update', defaultProfileId: profile.id })))) return;
    setSaved(true);
    if (app.state.settings?.defaultProfileId === profile.id || isNew) setDefaultNote(t('settings.newConversationsUse', { name: profile.name }));
  }

  async function save(event: SubmitEvent) {
    event.preventDefault();
    setError(undefined);
    setSaved(false);
    setDefaultNote('');
    setBusy(true);
    try {
      if (form() === 'script') await saveScript();
      else await saveProfile();
    } finally {
      setBusy(false);
    }
  }

  async function testConnection() {
    setTestResult({ text: t('settings.testing') });
    try {
      const result = await app.client.send({ type: 'profiles.test', profile: profileInput() }, { showsErrors: true });
      setModels(result.models ?? []);
      // No one should have to type a model id: an empty Model takes the server's first.
      if (model().trim() === '' && result.models?.[0]) setModel(result.models[0]);
      setTestResult(describeTestResult(result));
    } catch (testError) {
      setTestResult(describeError(testError));
    }
  }

  return (
    <form class="profile-form" aria-labelledby={`${idPrefix}-target`} onSubmit={(event) => void save(event)} onInput={() => setSaved(false)}>
      <h2 id={`${idPrefix}-target`} class="profile-form-target">
        {target()}
      </h2>
      <div class="field">
        <label for={`${idPrefix}-provider`}>{t('settings.provider')}</label>
        <select id={`${idPrefix}-provider`} class="select" value={kind()} onChange={(event) => changeKind(event.currentTarget.value as ProviderKind)}>
          <For each={PROVIDER_KIND_NAMES}>
            {(option) => (
              <option value={option} selected={option === kind()}>
                {t(PROVIDER_KINDS[option].labelKey)}
              </option>
            )}
          </For>
        </select>
      </div>
      <Show
        when={form() !== 'script'}
        fallback={
          <>
            <div class="field">
              <label for={`${idPrefix}-script`}>{t('settings.script')}</label>
              <textarea
                id={`${idPrefix}-script`}
                aria-describedby={`${idPrefix}-script-hint`}
                class="input script-input"
                spellcheck={false}
                rows={12}
                value={script()}
                onInput={(event) => setScript(event.currentTarget.value)}
              />
              <small class="field-hint" id={`${idPrefix}-script-hint`}>
                {t('settings.scriptHint')}
              </small>
              <button type="button" class="button small restore-script" onClick={() => void restoreScript()}>
                {t('settings.restoreScript')}
              </button>
            </div>
            <ProfileOptionFields
              idPrefix={idPrefix}
              instructions={instructions()}
              onInstructionsChange={setInstructions}
              instructionsHint={t('settings.demoInstructionsHint')}
              sampling={false}
              temperature=""
              onTemperatureChange={() => undefined}
              maxOutputTokens=""
              onMaxOutputTokensChange={() => undefined}
              imagesOption={false}
              acceptsImages={false}
              onAcceptsImagesChange={() => undefined}
            />
          </>
        }
      >
        <div class="field">
          <label for={`${idPrefix}-name`}>{t('settings.name')}</label>
          <input id={`${idPrefix}-name`} class="input" value={name()} placeholder={t(provider().labelKey)} onInput={(event) => setName(event.currentTarget.value)} />
        </div>
        {/* A model on this device has its own fields; a connection's follow. */}
        <Show when={form() === 'local-model'}>
          <LocalModelSettings source={model()} onSourceChange={setModel} actionsMount={downloadSlot()} />
        </Show>
        <Show when={form() === 'connection'}>
          <ProfileConnectionFields
            idPrefix={idPrefix}
            baseUrl={baseUrl()}
            baseUrlHint={providerKind(kind()).baseUrlHint ?? ''}
            onBaseUrlChange={setBaseUrl}
            apiKey={apiKey()}
            keyPlaceholder={storedKeyApplies() ? maskedKey() : ''}
            onApiKeyChange={setApiKey}
            model={model()}
            onModelChange={setModel}
            models={models()}
            testResult={testResult()}
            onTest={() => void testConnection()}
          />
        </Show>
        <ProfileOptionFields
          idPrefix={idPrefix}
          instructions={instructions()}
          onInstructionsChange={setInstructions}
          temperature={temperature()}
          onTemperatureChange={setTemperature}
          maxOutputTokens={maxOutputTokens()}
          onMaxOutputTokensChange={setMaxOutputTokens}
          imagesOption={providerKind(kind()).images === 'choice'}
          acceptsImages={acceptsImages()}
          onAcceptsImagesChange={setAcceptsImages}
        />
      </Show>
      <Show when={error()}>
        {(shown) => (
          <div class="form-error" role="alert">
            {shown().text}
            <ErrorDetail detail={shown().detail} open />
          </div>
        )}
      </Show>
      <div class="form-row">
        <button type="submit" class="button primary" disabled={busy()}>
          {t('settings.save')}
        </button>
        <Show when={saved()}>
          <span class="saved-note">{t('settings.saved')}</span>
          <Show when={defaultNote()}>
            <span class="saved-note default-note">{defaultNote()}</span>
          </Show>
        </Show>
      </div>
      <div ref={setDownloadSlot} />
    </form>
  );
}
