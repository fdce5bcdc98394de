import { createEffect, createSignal, createUniqueId, For, onCleanup, onMount, Show } from 'solid-js';
import type { McpServerView, ToolPermission } from '../../schema/mcp';
import { useApp } from '../state/app-context';
import { settle } from '../common/error-report';
import { createHashRoute } from '../hash-route';
import { t } from '../i18n/i18n';
import { ConfirmDialog } from '../common/ConfirmDialog';
import { McpServerForm } from './McpServerForm';
import { McpToolRow } from './McpToolRow';

/** What the server form edits; a new object remounts it with fresh fields. */
interface FormTarget {
  server?: McpServerView;
}

/**
 * Settings → MCP servers: add a server by name, URL and optional token; see each server's status and tools; set each
 * tool's permission; reconnect; remove. Status is this tab's connection (each tab connects for itself).
 */
export function McpSettings() {
  const app = useApp();
  const headingId = `mcp-heading-${createUniqueId()}`;
  const [formTarget, setFormTarget] = createSignal<FormTarget>();
  const [removing, setRemoving] = createSignal<McpServerView>();

  // Opened from a tool call's "Change permission" (`#/settings?tool=…`): focus that tool's select once it is listed
  // (listing may wait for the connection). Each server update renders the rows anew, so focus is taken back only when
  // such a re-render dropped it, and not at all once the user has pressed a key or pointed anywhere.
  const route = createHashRoute();
  let sectionElement: HTMLElement | undefined;
  let focusedFor: string | undefined;
  let userActed = false;
  const acted = () => (userActed = true);
  document.addEventListener('pointerdown', acted, true);
  document.addEventListener('keydown', acted, true);
  onCleanup(() => {
    document.removeEventListener('pointerdown', acted, true);
    document.removeEventListener('keydown', acted, true);
  });
  createEffect(() => {
    const current = route();
    const wanted = current.name === 'settings' ? current.tool : undefined;
    if (!wanted || !app.state.mcpServers.some((server) => server.tools.some((tool) => tool.name === wanted))) return;
    queueMicrotask(() => {
      const select = [...(sectionElement?.querySelectorAll<HTMLSelectElement>('select.mcp-permission') ?? [])].find((candidate) => candidate.getAttribute('aria-label') === wanted);
      if (!select) return;
      const dropped = document.activeElement === null || document.activeElement === document.body;
      if (focusedFor === wanted && (userActed || !dropped)) return;
      if (focusedFor !== wanted) select.scrollIntoView({ block: 'center' });
      focusedFor = wanted;
      select.focus();
    });
  });

  onMount(async () => {
    const servers = await settle(app.client.send({ type: 'mcp.list' }));
    if (!servers) return;
    app.dispatch({ type: 'mcp-servers-changed', servers });
    // Showing a server's tools needs a connection: open the ones this tab has not opened yet.
    for (const server of servers) if (server.status === 'disconnected') void settle(app.client.send({ type: 'mcp.connect', serverId: server.id }));
  });

  function setPermission(server: McpServerView, toolName: string, permission: ToolPermission) {
    void settle(app.client.send({ type: 'mcp.setPermission', serverId: server.id, toolName, permission }));
  }

  async function remove(server: McpServerView) {
    setRemoving(undefined);
    if (formTarget()?.server?.id === server.id) setFormTarget(undefined);
    await settle(app.client.send({ type: 'mcp.remove', serverId: server.id }));
  }

  function statusText(server: McpServerView): string {
    switch (server.status) {
      case 'connected':
        return t(server.tools.length === 1 ? 'mcp.status.connectedOne' : 'mcp.status.connected', { count: server.tools.length });
      case 'connecting':
        return t('mcp.status.connecting');
      case 'disconnected':
        return t('mcp.status.disconnected');
      case 'error':
        return t('mcp.status.error', { message: server.error?.message ?? '' });
    }
  }

  return (
    <section class="settings-section mcp-settings" aria-labelledby={headingId} ref={sectionElement}>
      <h2 id={headingId}>{t('mcp.title')}</h2>
      <p class="field-hint">{t('mcp.intro')}</p>
      <ul class="mcp-server-list">
        <For each={app.state.mcpServers}>
          {(server) => (
            <li class="mcp-server">
              <div class="mcp-server-head">
                <span class="mcp-server-name">{server.name}</span>
                <span class="mcp-server-url">{server.url}</span>
                <span class="profile-actions">
                  <button type="button" class="button small" aria-label={t('mcp.reconnectServer', { name: server.name })} disabled={server.status === 'connecting'} onClick={() => void settle(app.client.send({ type: 'mcp.connect', serverId: server.id }))}>
                    {t('mcp.reconnect')}
                  </button>
                  <button type="button" class="button small" aria-label={t('mcp.editServer', { name: server.name })} onClick={() => setFormTarget({ server })}>
                    {t('settings.edit')}
                  </button>
                  <button type="button" class="button small" aria-label={t('mcp.removeServer', { name: server.name })} onClick={() => setRemoving(server)}>
                    {t('mcp.remove')}
                  </button>
                </span>
              </div>
              <p class="mcp-status" classList={{ 'error-text': server.status === 'error' }} data-status={server.status}>
                {statusText(server)}
              </p>
              <Show when={server.status === 'connected' && server.error}>
                {(warning) => <p class="mcp-warning">{warning().message}</p>}
              </Show>
              <Show when={server.tools.length > 0}>
                <ul class="mcp-tool-list" aria-label={t('mcp.toolsOf', { name: server.name })}>
                  <For each={server.tools}>{(tool) => <McpToolRow tool={tool} onPermission={(permission) => setPermission(server, tool.name, permission)} />}</For>
                </ul>
              </Show>
            </li>
          )}
        </For>
      </ul>
      <Show
        when={formTarget()}
        keyed
        fallback={
          <button type="button" class="button" onClick={() => setFormTarget({})}>
            {t('mcp.add')}
          </button>
        }
      >
        {(target) => <McpServerForm server={target.server} onDone={() => setFormTarget(undefined)} />}
      </Show>
      <Show when={removing()}>
        {(server) => (
          <ConfirmDialog
            title={t('mcp.removeTitle')}
            body={t('mcp.removeBody', { name: server().name })}
            confirmLabel={t('mcp.remove')}
            onConfirm={() => void remove(server())}
            onCancel={() => setRemoving(undefined)}
          />
        )}
      </Show>
    </section>
  );
}
