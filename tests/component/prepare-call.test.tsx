import { render, screen, waitFor } from '@solidjs/testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest, ToolCallBlock } from '../../src/schema/messages/blocks';
import { ToolCallCard } from '../../src/ui/requests/ToolCallCard';
import { PREPARE_EVERY_MS, PREPARE_FOR_MS, prepareCallWhileShown } from '../../src/ui/requests/prepare-call';
import type { WorkerClient } from '../../src/ui/state/channel';

// While an MCP tool's approval is on screen, its server is readied for the call (McpHub.prepareCall).

const target = { conversationId: 'c1', messageId: 'm1', requestId: 'call-1' };
const SOURCE = { kind: 'mcp' as const, serverId: 's1', serverName: 'everything', toolName: 'echo' };
const PREPARE = { type: 'mcp.prepareCall', conversationId: 'c1', serverId: 's1' };

function pendingCall(overrides: Partial<ToolCallBlock> = {}): ToolCallBlock {
  return { type: 'tool_call', toolCallId: 'call-1', toolName: 'mcp__everything__echo', args: { message: 'hello' }, status: 'pending', source: SOURCE, ...overrides };
}

const approval: ApprovalRequest = { type: 'request', kind: 'permission', requestId: 'call-1', toolCallId: 'call-1', status: 'pending', payload: { toolName: 'mcp__everything__echo' } };

function fakeClient() {
  const send = vi.fn(async (_command: Record<string, unknown>, _options?: unknown) => ({}));
  return { client: { send } as unknown as Pick<WorkerClient, 'send'>, send };
}

const prepares = (send: ReturnType<typeof fakeClient>['send']) => send.mock.calls.filter(([command]) => command.type === 'mcp.prepareCall');

function Shown(props: { client: Pick<WorkerClient, 'send'>; block: ToolCallBlock }) {
  prepareCallWhileShown(props.client, () => target, () => props.block);
  return <p>shown</p>;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('an approval on screen readies its server', () => {
  it("an MCP tool's approval card asks the worker at once, quietly (a refusal is no toast)", async () => {
    const { client, send } = fakeClient();
    render(() => <ToolCallCard block={pendingCall()} approval={approval} conversationId="c1" messageId="m1" client={client} />);
    await waitFor(() => expect(send).toHaveBeenCalledWith(PREPARE, { showsErrors: true }));
  });

  it('asks again every few seconds while shown and the page visible, for two minutes at most, and never once gone', () => {
    vi.useFakeTimers();
    const { client, send } = fakeClient();
    const { unmount } = render(() => <Shown client={client} block={pendingCall()} />);
    expect(screen.getByText('shown')).toBeInTheDocument();
    expect(prepares(send)).toHaveLength(1);
    vi.advanceTimersByTime(PREPARE_EVERY_MS);
    expect(prepares(send)).toHaveLength(2);
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    vi.advanceTimersByTime(PREPARE_EVERY_MS);
    expect(prepares(send)).toHaveLength(2);
    visibility.mockReturnValue('visible');
    vi.advanceTimersByTime(PREPARE_FOR_MS);
    const atTheEnd = prepares(send).length;
    expect(atTheEnd).toBeLessThanOrEqual(PREPARE_FOR_MS / PREPARE_EVERY_MS + 1);
    vi.advanceTimersByTime(10 * PREPARE_EVERY_MS);
    expect(prepares(send)).toHaveLength(atTheEnd);
    unmount();

    const second = fakeClient();
    const shown = render(() => <Shown client={second.client} block={pendingCall()} />);
    shown.unmount();
    vi.advanceTimersByTime(10 * PREPARE_EVERY_MS);
    expect(prepares(second.send)).toHaveLength(1);
  });

  it('a built-in tool has no server to ready', () => {
    vi.useFakeTimers();
    const { client, send } = fakeClient();
    render(() => <Shown client={client} block={pendingCall({ toolName: 'get_current_time', source: undefined })} />);
    vi.advanceTimersByTime(3 * PREPARE_EVERY_MS);
    expect(send).not.toHaveBeenCalled();
  });
});
