import { fireEvent, render, screen, within } from '@solidjs/testing-library';
import { createSignal } from 'solid-js';
import { describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest, ToolCallBlock } from '../../src/schema/messages/blocks';
import type { ToolProgress } from '../../src/schema/events';
import type { Message } from '../../src/schema/records';
import { ToolCallCard } from '../../src/ui/requests/ToolCallCard';
import type { WorkerClient } from '../../src/ui/state/channel';
import { parseRoute, routeHash } from '../../src/ui/hash-route';
import { applyEvent, createInitialState } from '../../src/ui/state/store';

// What a tool call's card says about calls nobody was asked about (a permission decided), a call's progress, and a
// call that was cut off: each said once, in words, with the way to change the permission.

const target = { conversationId: 'c1', messageId: 'm1' };
const client = { send: vi.fn(async () => ({})) } as unknown as Pick<WorkerClient, 'send'>;
const SOURCE = { kind: 'mcp' as const, serverId: 's1', serverName: 'everything', toolName: 'echo', origin: 'http://127.0.0.1:1' };

function call(overrides: Partial<ToolCallBlock> = {}): ToolCallBlock {
  return { type: 'tool_call', toolCallId: 'call-1', toolName: 'mcp__everything__echo', args: { message: 'hi' }, status: 'success', result: 'Echo: hi', source: SOURCE, ...overrides };
}

/** The approval asked beside the call. */
function approval(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return { type: 'request', kind: 'permission', requestId: 'call-1', toolCallId: 'call-1', status: 'pending', payload: { toolName: 'mcp__everything__echo' }, ...overrides };
}

describe('a call the permission decided', () => {
  it('a "Never" call says it was not run because the user chose so, not that the tool is unknown, and links to the permission', () => {
    render(() => <ToolCallCard block={call({ status: 'denied', result: 'Not run: the user set mcp__everything__echo to "Never"…' })} {...target} client={client} />);
    expect(screen.getByText('Not run')).toBeInTheDocument();
    expect(screen.getByText(/You set this tool to Never\./)).toBeInTheDocument();
    expect(screen.queryByText(/Failed|Unknown tool|"Never"…/)).toBeNull();
    const link = screen.getByRole('link', { name: 'Change permission of mcp__everything__echo' });
    expect(link).toHaveAttribute('href', '#/settings?tool=mcp__everything__echo');
  });

  it('an "Always allow" call says it ran without asking, running or done, with the link; an approved one does not', () => {
    const [block, setBlock] = createSignal(call({ status: 'running', result: undefined }));
    const [asked, setAsked] = createSignal<ApprovalRequest | undefined>(undefined);
    render(() => <ToolCallCard block={block()} approval={asked()} {...target} client={client} />);
    expect(screen.getByText(/Running without asking — Always allow/)).toBeInTheDocument();
    setBlock(call());
    expect(screen.getByText('Done')).toBeInTheDocument();
    expect(screen.getByText(/Ran without asking — Always allow/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Change permission of mcp__everything__echo' })).toBeInTheDocument();
    setAsked(approval({ status: 'success', resolution: 'approved' }));
    expect(screen.queryByText(/without asking/)).toBeNull();
    expect(screen.getByText('Allowed')).toBeInTheDocument();
  });

  it('a built-in tool, which has no permission to change, gets neither', () => {
    render(() => <ToolCallCard block={call({ toolName: 'get_current_time', source: undefined })} {...target} client={client} />);
    expect(screen.queryByText(/without asking/)).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('the link goes to Settings at that tool (a route that survives a reload)', () => {
    expect(parseRoute(routeHash({ name: 'settings', tool: 'mcp__a b__c' }))).toEqual({ name: 'settings', tool: 'mcp__a b__c' });
    expect(parseRoute('#/settings')).toEqual({ name: 'settings' });
    render(() => <ToolCallCard block={call()} {...target} client={client} />);
    fireEvent.click(screen.getByRole('link', { name: 'Change permission of mcp__everything__echo' }));
    expect(parseRoute(window.location.hash)).toEqual({ name: 'settings', tool: 'mcp__everything__echo' });
  });
});

describe('a running call with progress', () => {
  it('shows a progressbar named by the tool, the step and the server\'s message, only while it runs', () => {
    const [block, setBlock] = createSignal(call({ toolName: 'mcp__everything__slow', status: 'running', result: undefined }));
    const progress: ToolProgress = { progress: 2, total: 5, message: 'Copying files' };
    render(() => <ToolCallCard block={block()} {...target} client={client} progress={progress} />);
    const bar = screen.getByRole('progressbar', { name: 'Progress of mcp__everything__slow' });
    expect(bar).toHaveAttribute('max', '5');
    expect((bar as HTMLProgressElement).value).toBe(2);
    expect(screen.getByText(/2 of 5 · Copying files/)).toBeInTheDocument();
    setBlock(call({ toolName: 'mcp__everything__slow' }));
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('without a total the bar is indeterminate and the count is shown alone', () => {
    const block = call({ toolName: 'mcp__everything__slow', status: 'running', result: undefined });
    render(() => <ToolCallCard block={block} {...target} client={client} progress={{ progress: 7 }} />);
    const bar = screen.getByRole('progressbar', { name: 'Progress of mcp__everything__slow' });
    expect(bar).not.toHaveAttribute('value');
    expect(bar.nextElementSibling).toHaveTextContent(/^7$/);
  });

  it('the store keeps progress only for a call that is running, and forgets it when the call ends', () => {
    const state = createInitialState();
    const running = call({ status: 'running', result: undefined });
    const message: Message = { id: 'm1', conversationId: 'c1', seq: 1, role: 'assistant', blocks: [running], status: 'complete', createdAt: 0, updatedAt: 0 };
    const event = { type: 'tool-progress', conversationId: 'c1', messageId: 'm1', toolCallId: 'call-1', progress: { progress: 1, total: 3 } } as const;
    applyEvent(state, event);
    expect(state.toolProgress).toEqual({});
    applyEvent(state, { type: 'conversation-opened', conversation: { id: 'c1' } as never, messages: [message] });
    applyEvent(state, event);
    expect(state.toolProgress['call-1']).toEqual({ progress: 1, total: 3 });
    applyEvent(state, { type: 'message-upserted', message: { ...message, updatedAt: 1, blocks: [call()] } });
    expect(state.toolProgress).toEqual({});
    // A throttled notification that arrives after the call's last write does not bring it back.
    applyEvent(state, event);
    expect(state.toolProgress).toEqual({});
  });
});

describe('a call cut off while it ran', () => {
  it('says it may or may not have run once, while it asks and after the user decided', async () => {
    const cutOff = 'This call was cut off while it ran (the app closed or crashed); it may or may not have run.';
    const [block, setBlock] = createSignal(call({ status: 'interrupted', result: cutOff }));
    const [asked, setAsked] = createSignal(approval({ kind: 'rerun' }));
    const { container } = render(() => <ToolCallCard block={block()} approval={asked()} {...target} client={client} />);
    const count = () => (container.textContent?.match(/may or may not have run/g) ?? []).length;
    expect(await within(container).findByRole('button', { name: 'Run again' })).toBeInTheDocument();
    expect(count()).toBe(1);
    setBlock(call({ status: 'interrupted', result: `${cutOff} The user chose not to run it again.` }));
    setAsked(approval({ kind: 'rerun', status: 'denied', resolution: 'denied' }));
    expect(screen.getByText('Skipped after an interruption')).toBeInTheDocument();
    expect(count()).toBe(1);
  });
});
