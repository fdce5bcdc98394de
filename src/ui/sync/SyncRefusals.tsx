import { createSignal, createUniqueId, Show } from 'solid-js';
import type { SyncRefusals as Refusals, SyncStatus } from '../../schema/sync/sync';
import { useApp } from '../state/app-context';
import { describeError } from '../common/error-words';
import { formatMoment, locale, t } from '../i18n/i18n';
import { refusalSummary } from './sync-status-words';

/**
 * What this device refused from the sync server, and a key document gone or replaced there, said in words (the security issue: nothing changed on the server goes
 * unnoticed): how many documents and why, that none was applied, and "Clear the warning" once the person has seen it.
 */
export function SyncRefusals(props: { status: SyncStatus }) {
  const app = useApp();
  const number = (value: number) => new Intl.NumberFormat(locale()).format(value);
  const [failure, setFailure] = createSignal<string>();
  const [passphrase, setPassphrase] = createSignal('');
  const [joining, setJoining] = createSignal(false);
  const id = `sync-rejoin-${createUniqueId()}`;
  async function send(command: { type: 'sync.clearRefusals' } | { type: 'sync.restoreKey' } | { type: 'sync.rejoin'; passphrase: string }) {
    setFailure(undefined);
    try {
      // A wrong passphrase is said here, beside its field, not in the app's alert too.
      const status = command.type === 'sync.rejoin' ? await app.client.send(command, { showsErrors: true }) : await app.client.send({ type: command.type });
      app.dispatch({ type: 'sync-status', status });
      return true;
    } catch (error) {
      setFailure(describeError(error).text);
      return false;
    }
  }
  async function join(event: SubmitEvent) {
    event.preventDefault();
    setJoining(true);
    // The passphrase is not kept on screen once the worker has taken it.
    if (await send({ type: 'sync.rejoin', passphrase: passphrase() })) setPassphrase('');
    setJoining(false);
  }
  return (
    <>
      {/* The key document gone or replaced on the server: said, never mended silently; this device can put its own back. */}
      <Show when={props.status.keyDocument}>
        {(state) => (
          <div class="sync-refused">
            <p>{t(`sync.keyDocument.${state()}`)}</p>
            <Show when={state() === 'missing'}>
              <div class="form-row">
                <button type="button" class="button" onClick={() => void send({ type: 'sync.restoreKey' })}>
                  {t('sync.keyDocument.restore')}
                </button>
              </div>
            </Show>
            {/* Another key on the server (set up again elsewhere): the passphrase joins it; a wrong one is refused below. */}
            <Show when={state() === 'replaced'}>
              <form class="form-row" onSubmit={(event) => void join(event)}>
                <div class="field">
                  <label for={id}>{t('sync.rejoin.passphrase')}</label>
                  <input id={id} class="input" type="password" required maxLength={500} autocomplete="off" value={passphrase()} onInput={(event) => setPassphrase(event.currentTarget.value)} />
                </div>
                <button type="submit" class="button" disabled={joining()}>
                  {t('sync.rejoin.join')}
                </button>
              </form>
            </Show>
          </div>
        )}
      </Show>
      <Show when={failure()}>
        {(text) => (
          <p class="form-error" role="alert">
            {text()}
          </p>
        )}
      </Show>
      <Show when={props.status.refused}>
        {(refused) => (
          <div class="sync-refused">
            {/* "Synced" gives way to the warning in the status line; in any other state it is said here. */}
            <Show when={props.status.state !== 'synced'}>
              <p>{refusalSummary(refused(), locale())}</p>
            </Show>
            <details>
              <summary>{t('sync.refused.details')}</summary>
              <ul>
                {(['unreadable', 'replayed', 'misplaced'] as const satisfies ReadonlyArray<keyof Refusals>).map((kind) => (
                  <Show when={refused()[kind] > 0}>
                    <li>{t(`sync.refused.${kind}`, { count: number(refused()[kind]) })}</li>
                  </Show>
                ))}
                <li>{t('sync.refused.last', { time: formatMoment(refused().lastAt, locale(), Date.now()) })}</li>
              </ul>
              <p class="field-hint">{t('sync.refused.explain')}</p>
            </details>
            <div class="form-row">
              <button type="button" class="button" onClick={() => void send({ type: 'sync.clearRefusals' })}>
                {t('sync.refused.clear')}
              </button>
            </div>
          </div>
        )}
      </Show>
    </>
  );
}
