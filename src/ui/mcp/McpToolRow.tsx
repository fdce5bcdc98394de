import { createUniqueId, For, Show } from 'solid-js';
import type { McpToolView, ToolPermission } from '../../schema/mcp';
import { t, type MessageKey } from '../i18n/i18n';

interface McpToolRowProps {
  tool: McpToolView;
  onPermission(permission: ToolPermission): void;
}

const PERMISSIONS: ReadonlyArray<{ value: ToolPermission; labelKey: MessageKey }> = [
  { value: 'ask', labelKey: 'mcp.permission.ask' },
  { value: 'allow', labelKey: 'mcp.permission.allow' },
  { value: 'never', labelKey: 'mcp.permission.never' },
];

/** One tool of a server: what it is, the server's hints about it, and whether it may run without asking. */
export function McpToolRow(props: McpToolRowProps) {
  const descriptionId = `mcp-tool-${createUniqueId()}`;
  const chips = () => {
    const hints = props.tool.annotations ?? {};
    const list: Array<{ key: MessageKey; danger?: boolean }> = [];
    if (hints.readOnlyHint === true) list.push({ key: 'mcp.hint.readOnly' });
    if (hints.destructiveHint === true) list.push({ key: 'mcp.hint.destructive', danger: true });
    if (hints.openWorldHint === true) list.push({ key: 'mcp.hint.openWorld' });
    return list;
  };
  return (
    <li class="mcp-tool">
      <div class="mcp-tool-text">
        <span class="mcp-tool-title">{props.tool.title ?? props.tool.serverToolName}</span>
        <code class="mcp-tool-name">{props.tool.name}</code>
        <Show when={chips().length > 0}>
          <span class="mcp-chips">
            <For each={chips()}>{(chip) => <span class="mcp-chip" classList={{ danger: chip.danger === true }}>{t(chip.key)}</span>}</For>
          </span>
        </Show>
        <Show when={props.tool.description}>
          <p class="mcp-tool-description" id={descriptionId}>
            {props.tool.description}
          </p>
        </Show>
      </div>
      <select
        class="select mcp-permission"
        aria-label={props.tool.name}
        aria-describedby={props.tool.description ? descriptionId : undefined}
        value={props.tool.permission}
        onChange={(event) => props.onPermission(event.currentTarget.value as ToolPermission)}
      >
        <For each={PERMISSIONS}>
          {(option) => (
            <option value={option.value} selected={option.value === props.tool.permission}>
              {t(option.labelKey)}
            </option>
          )}
        </For>
      </select>
    </li>
  );
}
