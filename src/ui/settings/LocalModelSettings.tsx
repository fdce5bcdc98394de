import { createEffect, createSignal, createUniqueId, For, on, onCleanup, Show } from 'solid-js';
import { Portal } from 'solid-js/web';
import type { LocalModelStatus } from '../../schema/protocol';
import { MAX_ENGINE_THREADS } from '../../schema/limits';
import { useApp } from '../state/app-context';
import { describeError } from '../common/error-words';
import { t } from '../i18n/i18n';
import { formatBytes, progressText, statusText } from './local-model-words';
import { MODEL_CATALOG } from './model-catalog';
import { checkModelUrl, isUsableModelSource } from './model-url';

interface LocalModelSettingsProps {
  /** The model's source: a URL, or `file:<name>` for a file picked on this device. */
  source: string;
  onSourceChange: (source: string) => void;
  /**
   * Where the download part (status, Download, progress) goes: below the form's Save, so what appears when the URL
   * field loses focus never moves the button the user is clicking. Nothing is shown until it is given.
   */
  actionsMount?: HTMLElement | undefined;
}

const CUSTOM = 'custom';
const POLL_MS = 500;

/**
 * The in-browser model part of a profile: which GGUF model (a listed one, any URL, or a file on the device), its
 * download (bytes, speed, time left; cancel; resumes after a reload), deletion, and how the engine runs it. Nothing is
 * downloaded until the user presses Download.
 */
export function LocalModelSettings(props: LocalModelSettingsProps) {
  const app = useApp();
  const idPrefix = `local-model-${createUniqueId()}`;
  const [status, setStatus] = createSignal<LocalModelStatus>();
  const [error, setError] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  // A new in-browser profile starts on the first listed model, not on "Other model" with an empty URL (nor on another
  // provider's model name, kept when the Provider was switched).
  if (!isUsableModelSource(props.source.trim())) props.onSourceChange(MODEL_CATALOG[0]!.url);
  const catalogEntry = () => MODEL_CATALOG.find((entry) => entry.url === props.source);
  const isUrl = () => checkModelUrl(props.source).ok;
  // What the URL check said on the last change: the address was refused, or a Hugging Face page address was rewritten.
  const [urlNote, setUrlNote] = createSignal<'refused' | 'rewritten' | ''>('');
  const [remoteSize, setRemoteSize] = createSignal<number | null>();

  let timer: ReturnType<typeof setTimeout> | undefined;
  let generation = 0;
  let downloadAskedAt: number | undefined;
  async function refresh() {
    clearTimeout(timer);
    const source = props.source.trim();
    const asked = ++generation;
    if (source === '' || !isUsableModelSource(source)) {
      setStatus(undefined);
      return;
    }
    try {
      const next = await app.client.send({ type: 'localModel.status', source });
      if (asked !== generation) return;
      setStatus(next);
      // Right after Download the worker may not have written anything yet: keep looking for a moment.
      const justAsked = downloadAskedAt !== undefined && Date.now() - downloadAskedAt < 5000;
      if (next.state === 'downloading' || next.state === 'paused' || (justAsked && next.state === 'absent')) timer = setTimeout(() => void refresh(), POLL_MS);
    } catch (statusError) {
      if (asked === generation) setError(describeError(statusError).text);
    }
  }
  createEffect(on(() => props.source, () => {
    setError('');
    void refresh();
    void measure();
  }));

  // A custom model's size before Download, as the listed ones show theirs: the server's Content-Length for a HEAD.
  let sizeRequest: AbortController | undefined;
  async function measure() {
    sizeRequest?.abort();
    setRemoteSize(undefined);
    if (!isUrl() || catalogEntry()) return;
    const request = (sizeRequest = new AbortController());
    try {
      const response = await fetch(props.source.trim(), { method: 'HEAD', signal: request.signal });
      const length = Number(response.headers.get('content-length'));
      if (!request.signal.aborted) setRemoteSize(response.ok && length > 0 ? length : null);
    } catch {
      if (!request.signal.aborted) setRemoteSize(null);
    }
  }
  onCleanup(() => sizeRequest?.abort());

  function changeUrl(text: string) {
    const checked = checkModelUrl(text);
    setUrlNote(text.trim() === '' || (checked.ok && !checked.rewritten) ? '' : checked.ok ? 'rewritten' : 'refused');
    props.onSourceChange(checked.ok ? checked.url : text.trim());
  }
  onCleanup(() => clearTimeout(timer));

  async function act(command: () => Promise<LocalModelStatus>) {
    setError('');
    setBusy(true);
    try {
      setStatus(await command());
    } catch (actionError) {
      setError(describeError(actionError).text);
    } finally {
      setBusy(false);
      void refresh();
    }
  }

  function download() {
    // Ask the browser to keep the model under storage pressure; it may say no, and that is fine.
    void navigator.storage?.persist?.().catch(() => false);
    downloadAskedAt = Date.now();
    void act(() => app.client.send({ type: 'localModel.download', source: props.source.trim() }));
  }

  async function pickFiles(input: HTMLInputElement) {
    const files = [...(input.files ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    input.value = '';
    if (files.length === 0) return;
    const name = files[0]!.name;
    await act(() => app.client.send({ type: 'localModel.import', name, files }));
    if (!error()) props.onSourceChange(`file:${name}`);
  }

  const stored = () => status()?.storedBytes ?? 0;
  const threadChoices = () => Array.from({ length: Math.min(navigator.hardwareConcurrency || 1, MAX_ENGINE_THREADS) }, (_, index) => index + 1);
  const state = () => status()?.state ?? 'absent';
  const memoryWarning = () => {
    const entry = catalogEntry();
    const memory = status()?.deviceMemoryGb;
    return entry && memory !== undefined && entry.memoryGb > memory / 2 ? t('localModel.memoryWarning', { memory, need: entry.memoryGb }) : '';
  };

  return (
    <div class="local-model">
      <div class="field">
        <label for={`${idPrefix}-model`}>{t('settings.model')}</label>
        <select
          id={`${idPrefix}-model`}
          class="select"
          onChange={(event) => {
            const value = event.currentTarget.value;
            if (value !== CUSTOM) props.onSourceChange(value);
          }}
        >
          <For each={MODEL_CATALOG}>
            {(entry) => (
              <option value={entry.url} selected={entry.url === props.source}>
                {t('localModel.catalogEntry', { name: entry.label, size: formatBytes(entry.bytes), memory: entry.memoryGb })}
              </option>
            )}
          </For>
          <option value={CUSTOM} selected={!catalogEntry()}>
            {t('localModel.custom')}
          </option>
        </select>
      </div>
      <div class="field">
        <label for={`${idPrefix}-url`}>{t('localModel.url')}</label>
        <input
          id={`${idPrefix}-url`}
          class="input"
          type="url"
          placeholder="https://huggingface.co/…/resolve/main/model-Q4_K_M.gguf"
          value={props.source.startsWith('file:') ? '' : props.source}
          onChange={(event) => changeUrl(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for={`${idPrefix}-file`}>{t('localModel.file')}</label>
        <input id={`${idPrefix}-file`} class="file-input" type="file" accept=".gguf" multiple disabled={busy()} onChange={(event) => void pickFiles(event.currentTarget)} />
        <small class="field-hint">{t('localModel.fileHint')}</small>
      </div>

      <Show when={props.actionsMount}>
        {(mount) => (
          <Portal mount={mount()}>
            <div class="local-model local-model-download">
            <Show when={urlNote() === 'refused'}>
              <p class="form-error" role="alert">
                {t('settings.urlNotFetchable')}
              </p>
            </Show>
            <Show when={urlNote() === 'rewritten'}>
              <p class="field-hint">{t('settings.urlRewritten')}</p>
            </Show>
            <Show when={isUrl() && !catalogEntry() && state() === 'absent' && remoteSize() !== undefined}>
              <p class="field-hint local-model-size">{remoteSize() ? t('settings.urlSize', { size: formatBytes(remoteSize()!) }) : t('settings.urlSizeUnknown')}</p>
            </Show>
            <Show when={memoryWarning()}>
              <p class="local-model-warning">{memoryWarning()}</p>
            </Show>

            <Show when={state() === 'downloading' || state() === 'paused' || (state() === 'error' && stored() > 0)}>
              <div class="local-model-progress">
                <progress aria-label={t('localModel.progress')} value={stored()} max={status()?.totalBytes ?? undefined} />
                <span class="local-model-progress-text">{progressText(status())}</span>
              </div>
            </Show>

            <div class="form-row local-model-actions">
              <Show when={isUrl() && state() !== 'downloading' && state() !== 'ready'}>
                <button type="button" class="button" disabled={busy()} onClick={download}>
                  {t('localModel.download')}
                </button>
              </Show>
              <Show when={state() === 'downloading'}>
                <button type="button" class="button" disabled={busy()} onClick={() => void act(() => app.client.send({ type: 'localModel.cancel', source: props.source.trim() }))}>
                  {t('localModel.cancel')}
                </button>
              </Show>
              <Show when={state() === 'ready' || (state() !== 'downloading' && stored() > 0)}>
                <button type="button" class="button" disabled={busy()} onClick={() => void act(() => app.client.send({ type: 'localModel.delete', source: props.source.trim() }))}>
                  {t('localModel.delete')}
                </button>
              </Show>
            </div>

            <p class="local-model-status" role="status">
              {statusText(status())}
            </p>
            <Show when={state() === 'ready'}>
              <label class="checkbox-field">
                <input
                  type="checkbox"
                  checked={status()?.constrainToolCalls ?? false}
                  onChange={(event) => {
                    const constrainToolCalls = event.currentTarget.checked;
                    void act(() => app.client.send({ type: 'localModel.setOptions', source: props.source.trim(), constrainToolCalls }));
                  }}
                />
                {t('localModel.constrain')}
              </label>
              <small class="field-hint">{t('localModel.constrainHint')}</small>
              <div class="field">
                <label for={`${idPrefix}-threads`}>{t('localModel.threads')}</label>
                <select
                  id={`${idPrefix}-threads`}
                  class="select"
                  disabled={busy() || !status()?.crossOriginIsolated}
                  onChange={(event) => {
                    const threads = Number(event.currentTarget.value);
                    void act(() => app.client.send({ type: 'localModel.setOptions', source: props.source.trim(), threads }));
                  }}
                >
                  <option value="0" selected={(status()?.threadsSetting ?? 0) === 0}>
                    {t('localModel.threadsAuto', { threads: status()?.automaticThreads ?? 1 })}
                  </option>
                  <For each={threadChoices()}>
                    {(count) => (
                      <option value={count} selected={status()?.threadsSetting === count}>
                        {count}
                      </option>
                    )}
                  </For>
                </select>
                <small class="field-hint">{status()?.crossOriginIsolated ? t('localModel.threadsHint') : t('localModel.threadsNeedIsolation')}</small>
              </div>
            </Show>
            <Show when={error() || status()?.error?.message}>
              <p class="form-error" role="alert">
                {error() || status()?.error?.message}
              </p>
            </Show>
            </div>
          </Portal>
        )}
      </Show>
    </div>
  );
}
