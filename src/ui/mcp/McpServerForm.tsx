import { createSignal, createUniqueId, Show } from 'solid-js';
import type { McpServerInput, McpServerView } from '../../schema/mcp';
import { useApp } from '../state/app-context';
import { describeError } from '../common/error-words';
import { t } from '../i18n/i18n';
import { originOf } from '../common/origin';

interface McpServerFormProps {
  /** The server being edited; absent to add one. */
  server?: McpServerView | undefined;
  onDone(): void;
}

/** Adds or edits an MCP server: name, URL, optional bearer token. "Connect" saves it and connects. */
export function McpServerForm(props: McpServerFormProps) {
  const app = useApp();
  const idPrefix = `mcp-${createUniqueId()}`;
  const [name, setName] = createSignal(props.server?.name ?? '');
  const [url, setUrl] = createSignal(props.server?.url ?? '');
  const [token, setToken] = createSignal('');
  const [error, setError] = createSignal('');
  const [busy, setBusy] = createSignal(false);
  // A stored token applies only while the URL stays on its origin (the worker drops it otherwise).
  const storedTokenApplies = () => props.server !== undefined && originOf(props.server.url) === originOf(url().trim());

  async function save(event: SubmitEvent) {
    event.preventDefault();
    setError('');
    setBusy(true);
    const input: McpServerInput = { name: name().trim(), url: url().trim() };
    if (props.server) input.id = props.server.id;
    if (token().trim()) input.token = token().trim();
    try {
      await app.client.send({ type: 'mcp.save', server: input }, { showsErrors: true });
      props.onDone();
    } catch (saveError) {
      setError(describeError(saveError).text);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="mcp-form" onSubmit={(event) => void save(event)}>
      <div class="field">
        <label for={`${idPrefix}-name`}>{t('mcp.name')}</label>
        <input id={`${idPrefix}-name`} class="input" required maxLength={60} value={name()} onInput={(event) => setName(event.currentTarget.value)} />
      </div>
      <div class="field">
        <label for={`${idPrefix}-url`}>{t('mcp.url')}</label>
        <input id={`${idPrefix}-url`} class="input" type="url" required placeholder="http://localhost:3001/mcp" value={url()} onInput={(event) => setUrl(event.currentTarget.value)} />
      </div>
      <div class="field">
        <label for={`${idPrefix}-token`}>{t('mcp.token')}</label>
        <input
          id={`${idPrefix}-token`}
          class="input"
          type="password"
          autocomplete="off"
          aria-describedby={`${idPrefix}-token-hint`}
          placeholder={storedTokenApplies() ? props.server?.tokenMasked ?? '' : ''}
          value={token()}
          onInput={(event) => setToken(event.currentTarget.value)}
        />
        <small class="field-hint" id={`${idPrefix}-token-hint`}>
          {t('mcp.tokenHint')}
        </small>
      </div>
      <Show when={error()}>
        <p class="form-error" role="alert">
          {error()}
        </p>
      </Show>
      <div class="form-row">
        <button type="submit" class="button primary" disabled={busy()}>
          {t('mcp.connect')}
        </button>
        <button type="button" class="button" onClick={() => props.onDone()}>
          {t('dialog.cancel')}
        </button>
      </div>
    </form>
  );
}
