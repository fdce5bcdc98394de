import { createEffect, createSignal, on, Show } from 'solid-js';
import type { DeviceRef } from '../../schema/sync/device';
import { useApp } from '../state/app-context';
import { settle } from '../common/error-report';
import type { ErrorWords } from '../common/error-words';
import { wordError } from '../common/lazy-error-words';
import { deviceName } from '../sync/device-name';
import { t } from '../i18n/i18n';

/**
 * Which device runs the conversation when another one does (sync), with "Continue on this device" to take it over.
 * Renders nothing while this device runs it; a failed take-over is said until another conversation is shown.
 */
export function ChatRunner(props: { conversationId: string; device: DeviceRef | undefined }) {
  const app = useApp();
  const [takingOver, setTakingOver] = createSignal(false);
  const [takeOverFailure, setTakeOverFailure] = createSignal<ErrorWords>();
  createEffect(on(() => props.conversationId, () => setTakeOverFailure(undefined), { defer: true }));

  async function takeOver() {
    if (takingOver()) return;
    setTakingOver(true);
    setTakeOverFailure(undefined);
    const conversationId = props.conversationId;
    try {
      await app.client.send({ type: 'conversation.takeOver', conversationId }, { showsErrors: true });
      // Read back who runs what rather than guess: the notice goes when this conversation is no longer listed.
      const runners = await settle(app.client.send({ type: 'sync.runners' }));
      if (runners) app.dispatch({ type: 'sync-runners', runners });
    } catch (error) {
      setTakeOverFailure(await wordError(error));
    } finally {
      setTakingOver(false);
    }
  }

  return (
    <Show when={props.device}>
      {(device) => (
        <div class="chat-runner">
          <p class="chat-runner__text" role="status">
            {device().name.trim() ? t('sync.runsOn', { device: deviceName(device()) }) : t('sync.runsOnUnnamed')}
          </p>
          <button type="button" class="button small" disabled={takingOver()} onClick={() => void takeOver()}>
            {t('sync.continueHere')}
          </button>
          <Show when={takeOverFailure()}>
            {(failure) => (
              <p class="chat-runner__error" role="alert">
                {failure().text}
              </p>
            )}
          </Show>
        </div>
      )}
    </Show>
  );
}
