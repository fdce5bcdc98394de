import { createEffect, createSignal, createUniqueId, on, onMount, Show } from 'solid-js';
import type { SyncStatus } from '../../schema/sync/sync';
import { useApp } from '../state/app-context';
import { describeError, type ErrorWords } from '../common/error-words';
import { locale, t } from '../i18n/i18n';
import { syncStatusText } from './sync-status-words';
import { WireError } from '../../schema/wire-error';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { ErrorDetail } from '../common/ErrorDetail';
import { SyncRefusals } from './SyncRefusals';
import './sync-settings.css';

/** Sync is set up (whatever it is doing now) in every state but `off`: then "Turn off sync" is what it offers. */
function isOn(status: SyncStatus | undefined): boolean {
  return status !== undefined && status.state !== 'off';
}

/**
 * Settings → "Sync": the server, the credentials and the passphrase, this device's name, and a status worded
 * from the worker's SyncStatus (read on mount, then followed through the store's `sync-status` events). A refused
 * "Turn on sync" is said in the status and keeps everything typed.
 */
export function SyncSettings() {
  const app = useApp();
  const id = `sync-${createUniqueId()}`;
  const [url, setUrl] = createSignal('');
  const [username, setUsername] = createSignal('');
  const [password, setPassword] = createSignal('');
  const [passphrase, setPassphrase] = createSignal('');
  const [deviceName, setDeviceName] = createSignal('');
  /** Set once the user typed a name: a status arriving later must not overwrite it. */
  let deviceNameEdited = false;
  const [busy, setBusy] = createSignal<'enable' | 'disable' | undefined>();
  /** "Turn off sync" was pressed: the dialog asks whether to keep this device's copy of what it synced. */
  const [askingOff, setAskingOff] = createSignal(false);
  const [failure, setFailure] = createSignal<ErrorWords>();
  /** "Turn on sync" found data without its key document: a new key is made only if the person asks for it. */
  const [keyMissing, setKeyMissing] = createSignal(false);
  const [nameFailure, setNameFailure] = createSignal<ErrorWords>();
  const [nameUsed, setNameUsed] = createSignal('');
  const status = () => app.state.sync;

  onMount(async () => {
    try {
      app.dispatch({ type: 'sync-status', status: await app.client.send({ type: 'sync.status' }, { showsErrors: true }) });
    } catch (error) {
      setFailure(describeError(error));
    }
  });

  // The name and the server come from the worker once known; what the user already typed stays.
  createEffect(
    on(status, (current) => {
      if (!current) return;
      if (!deviceNameEdited) setDeviceName(current.device.name);
      if (!url() && current.url) setUrl(current.url);
      if (!username() && current.username) setUsername(current.username);
    }),
  );

  /**
   * The status line: while "Turn on sync" works it says so; a refusal stays until sync runs (or is tried again), so a
   * status event of "off" arriving after it does not wipe out why.
   */
  const statusWords = (): { text: string; state: string } | undefined => {
    if (busy() === 'enable') return { text: t('sync.state.starting'), state: 'starting' };
    const refused = failure();
    const current = status();
    if (refused && !isOn(current)) return { text: refused.text, state: 'error' };
    return current ? { text: syncStatusText(current, locale()), state: current.state } : undefined;
  };

  async function turnOn(event: Event, newKey = false) {
    event.preventDefault();
    if (busy()) return;
    setFailure(undefined);
    setKeyMissing(false);
    setBusy('enable');
    try {
      // A name typed but not yet used is the one this device is known by once sync is on (it was dropped before).
      const name = deviceName().trim();
      if (deviceNameEdited && name && name !== status()?.device.name) {
        app.dispatch({ type: 'sync-status', status: await app.client.send({ type: 'sync.setDeviceName', name }, { showsErrors: true }) });
        deviceNameEdited = false;
        setNameUsed(name);
      }
      const result = await app.client.send({ type: 'sync.enable', url: url().trim(), username: username().trim(), password: password(), passphrase: passphrase(), ...(newKey ? { newKey } : {}) }, { showsErrors: true });
      // A status is a snapshot, not a record: the reply is at least as new as the events delivered before it.
      app.dispatch({ type: 'sync-status', status: result });
      // Secrets are not kept on screen (or in memory) once the worker has them.
      setPassword('');
      setPassphrase('');
    } catch (error) {
      setFailure(describeError(error));
      setKeyMissing(error instanceof WireError && error.reason === 'sync_key_missing');
    } finally {
      setBusy(undefined);
    }
  }

  /** Turns sync off (asked first whether to keep the mirror), or, while off, deletes a mirror kept before. */
  async function turnOff(keepMirror: boolean) {
    setAskingOff(false);
    if (busy()) return;
    setFailure(undefined);
    setBusy('disable');
    try {
      app.dispatch({ type: 'sync-status', status: await app.client.send({ type: 'sync.disable', keepMirror }, { showsErrors: true }) });
    } catch (error) {
      setFailure(describeError(error));
    } finally {
      setBusy(undefined);
    }
  }

  async function useName(event: SubmitEvent) {
    event.preventDefault();
    setNameFailure(undefined);
    setNameUsed('');
    const name = deviceName().trim();
    if (!name) return;
    try {
      const result = await app.client.send({ type: 'sync.setDeviceName', name }, { showsErrors: true });
      app.dispatch({ type: 'sync-status', status: result });
      deviceNameEdited = false;
      setDeviceName(result.device.name);
      setNameUsed(result.device.name);
    } catch (error) {
      setNameFailure(describeError(error));
    }
  }

  return (
    <section class="settings-section sync-settings" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t('sync.heading')}</h2>
      <p>{t('sync.explain')}</p>
      <p class="sync-status" role="status" data-sync-state={statusWords()?.state} data-refused={status()?.refused && isOn(status()) ? '' : undefined}>
        {statusWords()?.text ?? ''}
      </p>
      <Show when={!busy() && failure() && !isOn(status()) ? failure()?.detail : undefined}>{(detail) => <ErrorDetail detail={detail()} />}</Show>
      <Show when={isOn(status()) ? status() : undefined}>{(current) => <SyncRefusals status={current()} />}</Show>

      <form class="sync-device" onSubmit={(event) => void useName(event)}>
        <div class="field">
          <label for={`${id}-device`}>{t('sync.deviceName')}</label>
          <input
            id={`${id}-device`}
            class="input"
            required
            maxLength={80}
            autocomplete="off"
            aria-describedby={`${id}-device-hint`}
            value={deviceName()}
            onInput={(event) => {
              deviceNameEdited = true;
              setNameUsed('');
              setDeviceName(event.currentTarget.value);
            }}
          />
          <small class="field-hint" id={`${id}-device-hint`}>
            {t('sync.deviceNameHint')}
          </small>
        </div>
        <div class="form-row">
          <button type="submit" class="button" disabled={!deviceName().trim()}>
            {t('sync.useDeviceName')}
          </button>
          <Show when={nameUsed()}>{(name) => <span class="saved-note">{t('sync.deviceNameUsed', { name: name() })}</span>}</Show>
        </div>
        <Show when={nameFailure()}>
          {(shown) => (
            <p class="form-error" role="alert">
              {shown().text}
            </p>
          )}
        </Show>
      </form>

      <Show
        when={isOn(status())}
        fallback={
          <form class="sync-enable" onSubmit={(event) => void turnOn(event)}>
            <div class="field">
              <label for={`${id}-url`}>{t('sync.url')}</label>
              <input
                id={`${id}-url`}
                class="input"
                type="url"
                inputMode="url"
                required
                maxLength={2000}
                autocomplete="url"
                placeholder="https://couch.example.com/parley"
                value={url()}
                onInput={(event) => setUrl(event.currentTarget.value)}
              />
            </div>
            <div class="field">
              <label for={`${id}-username`}>{t('sync.username')}</label>
              <input id={`${id}-username`} class="input" maxLength={200} autocomplete="username" value={username()} onInput={(event) => setUsername(event.currentTarget.value)} />
            </div>
            <div class="field">
              <label for={`${id}-password`}>{t('sync.password')}</label>
              <input
                id={`${id}-password`}
                class="input"
                type="password"
                maxLength={500}
                autocomplete="current-password"
                value={password()}
                onInput={(event) => setPassword(event.currentTarget.value)}
              />
            </div>
            <div class="field">
              <label for={`${id}-passphrase`}>{t('sync.passphrase')}</label>
              <input
                id={`${id}-passphrase`}
                class="input"
                type="password"
                required
                maxLength={500}
                // Not the account's password: a password manager must not fill one in for the other.
                autocomplete="off"
                aria-describedby={`${id}-passphrase-hint`}
                value={passphrase()}
                onInput={(event) => setPassphrase(event.currentTarget.value)}
              />
              <small class="field-hint" id={`${id}-passphrase-hint`}>
                {t('sync.passphraseHint')}
              </small>
            </div>
            <div class="form-row">
              <button type="submit" class="button primary" disabled={busy() !== undefined}>
                {t('sync.turnOn')}
              </button>
              <Show when={keyMissing()}>
                <button type="button" class="button" disabled={busy() !== undefined} onClick={(event) => void turnOn(event, true)}>
                  {t('sync.makeNewKey')}
                </button>
              </Show>
            </div>
            <Show when={status()?.mirrorKept}>
              <div class="form-row sync-kept">
                <p class="field-hint" id={`${id}-kept`}>
                  {t('sync.mirrorKept')}
                </p>
                <button type="button" class="button" aria-describedby={`${id}-kept`} disabled={busy() !== undefined} onClick={() => void turnOff(false)}>
                  {t('sync.deleteKeptCopy')}
                </button>
              </div>
            </Show>
          </form>
        }
      >
        <Show when={status()?.url}>
          {(serverUrl) => (
            <p class="sync-server">
              {status()?.username ? t('sync.server', { url: serverUrl(), username: status()?.username ?? '' }) : t('sync.serverNoUser', { url: serverUrl() })}
            </p>
          )}
        </Show>
        <p class="field-hint" id={`${id}-off-hint`}>
          {t('sync.turnOffHint')}
        </p>
        <div class="form-row">
          <button type="button" class="button" aria-describedby={`${id}-off-hint`} disabled={busy() !== undefined} onClick={() => setAskingOff(true)}>
            {t('sync.turnOff')}
          </button>
        </div>
        <Show when={askingOff()}>
          <ConfirmDialog
            title={t('sync.turnOffTitle')}
            body={t('sync.turnOffAsk')}
            alternative={{ label: t('sync.turnOffKeep'), onChoose: () => void turnOff(true) }}
            confirmLabel={t('sync.turnOffDelete')}
            onConfirm={() => void turnOff(false)}
            onCancel={() => setAskingOff(false)}
          />
        </Show>
        {/* Turning off refused: sync still runs, so the status keeps saying what it does and the refusal stands here. */}
        <Show when={busy() === undefined && failure()}>
          {(shown) => (
            <p class="form-error" role="alert">
              {shown().text}
            </p>
          )}
        </Show>
      </Show>
    </section>
  );
}
