import { onCleanup, onMount } from 'solid-js';
import type { ToolCallBlock } from '../../schema/messages/blocks';
import type { RequestTarget } from '../../schema/protocol';
import type { WorkerClient } from '../state/channel';

/**
 * How often the server of an MCP tool whose approval is on screen is readied (see McpHub.prepareCall): within the 5 s
 * Chromium keeps a CORS preflight when the server names no `Access-Control-Max-Age`, and Node's default keep-alive.
 */
export const PREPARE_EVERY_MS = 4_000;
/** How long a card left on screen goes on readying it; an Allow after that pays the preflight, as every Allow did. */
export const PREPARE_FOR_MS = 120_000;

/**
 * While the calling component is mounted (an approval on screen) and the page is visible: asks the worker to ready the
 * server of `block`'s tool when it is an MCP server's, at once and every PREPARE_EVERY_MS for PREPARE_FOR_MS. A refusal
 * (another device runs the conversation, the server is gone) is nobody's concern: the Allow meets what is wrong.
 */
export function prepareCallWhileShown(client: Pick<WorkerClient, 'send'>, target: () => RequestTarget, block: () => ToolCallBlock): void {
  onMount(() => {
    const shownAt = Date.now();
    const prepare = () => {
      const source = block().source;
      if (source?.kind !== 'mcp' || document.visibilityState === 'hidden') return;
      client.send({ type: 'mcp.prepareCall', conversationId: target().conversationId, serverId: source.serverId }, { showsErrors: true }).catch(() => undefined);
    };
    prepare();
    const timer = setInterval(() => (Date.now() - shownAt >= PREPARE_FOR_MS ? clearInterval(timer) : prepare()), PREPARE_EVERY_MS);
    onCleanup(() => clearInterval(timer));
  });
}
