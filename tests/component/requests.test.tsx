import { fireEvent, render, screen, waitFor, within } from '@solidjs/testing-library';
import { createSignal } from 'solid-js';
import { describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest, Block, ElicitationRequest, ToolCallBlock } from '../../src/schema/messages/blocks';
import { WireError } from '../../src/schema/protocol';
import { ToolCallCard } from '../../src/ui/requests/ToolCallCard';
import { ElicitationForm } from '../../src/ui/requests/ElicitationForm';
import { MessageView } from '../../src/ui/messages/MessageView';
import type { WorkerClient } from '../../src/ui/state/channel';
import type { Message } from '../../src/schema/records';

const target = { conversationId: 'c1', messageId: 'm1' };

function pendingCall(overrides: Partial<ToolCallBlock> = {}): ToolCallBlock {
  return {
    type: 'tool_call',
    toolCallId: 'call-1',
    toolName: 'mcp__everything__echo',
    args: { message: 'hello' },
    status: 'pending',
    source: { kind: 'mcp', serverId: 's1', serverName: 'everything', toolName: 'echo', annotations: { readOnlyHint: true, openWorldHint: true }, inputSchema: { type: 'object', properties: { message: { type: 'string', title: 'Message text' } }, required: ['message'] } },
    ...overrides,
  };
}

/** The approval asked beside the call. */
function approvalOf(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return { type: 'request', kind: 'permission', requestId: 'call-1', toolCallId: 'call-1', status: 'pending', payload: { toolName: 'mcp__everything__echo' }, ...overrides };
}

function fakeClient(reply: (command: Record<string, unknown>) => unknown = () => ({ message: {} })) {
  const send = vi.fn(async (command: Record<string, unknown>) => reply(command));
  return { client: { send } as unknown as Pick<WorkerClient, 'send'>, send };
}

describe('a tool call waiting for approval', () => {
  it('is a group named "Tool call: <name>" with the server\'s hints, and Allow sends approval without params', async () => {
    const { client, send } = fakeClient();
    render(() => <ToolCallCard block={pendingCall()} approval={approvalOf()} {...target} client={client} />);
    const group = screen.getByRole('group', { name: 'Tool call: mcp__everything__echo' });
    expect(within(group).getByText('Read-only')).toBeInTheDocument();
    expect(within(group).getByText('Reaches outside services')).toBeInTheDocument();
    // The controls' code loads after the card's (a call waiting for nothing loads none of it).
    fireEvent.click(await within(group).findByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(send).toHaveBeenCalledWith({ type: 'request.resolve', ...target, requestId: 'call-1', approved: true }, { showsErrors: true }));
  });

  it('Deny sends the reason the user wrote', async () => {
    const { client, send } = fakeClient();
    render(() => <ToolCallCard block={pendingCall()} approval={approvalOf()} {...target} client={client} />);
    fireEvent.input(await screen.findByRole('textbox', { name: 'Reason' }), { target: { value: '  not now  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(send).toHaveBeenCalledWith({ type: 'request.resolve', ...target, requestId: 'call-1', approved: false, reason: 'not now' }, { showsErrors: true }));
  });

  it('Edit arguments shows the JSON in "Arguments"; Allow sends the edit; bad JSON is said, not sent; the worker\'s refusal is shown', async () => {
    const { client, send } = fakeClient((command) => {
      if ((command.params as { message?: string } | undefined)?.message === 'refused') throw new WireError({ code: 'invalid_answer', reason: 'arguments_invalid', params: { tool: 'mcp__everything__echo' }, message: 'Invalid arguments: field `message` is too short.' });
      return { message: {} };
    });
    render(() => <ToolCallCard block={pendingCall()} approval={approvalOf()} {...target} client={client} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit arguments' }));
    const box = screen.getByRole('textbox', { name: 'Arguments' }) as HTMLTextAreaElement;
    expect(JSON.parse(box.value)).toEqual({ message: 'hello' });
    fireEvent.input(box, { target: { value: '{"message": ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Allow' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('not valid JSON');
    // Nothing sent but the card's readying of its server.
    expect(send.mock.calls.filter(([command]) => command.type !== 'mcp.prepareCall')).toEqual([]);
    fireEvent.input(box, { target: { value: '{"message": "refused"}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Allow' }));
    const refusal = await screen.findByRole('alert');
    await waitFor(() => expect(refusal).toHaveTextContent('These arguments do not fit what mcp__everything__echo accepts'));
    expect(refusal).toHaveTextContent('field `message` is too short');
    fireEvent.input(box, { target: { value: '{"message": "edited"}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(send).toHaveBeenLastCalledWith({ type: 'request.resolve', ...target, requestId: 'call-1', approved: true, params: { message: 'edited' } }, { showsErrors: true }));
  });

  it('a simple schema can be edited as a form, labelled by the schema\'s titles', async () => {
    const { client, send } = fakeClient();
    render(() => <ToolCallCard block={pendingCall()} approval={approvalOf()} {...target} client={client} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit arguments' }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit as a form' }));
    const field = screen.getByRole('textbox', { name: 'Message text' });
    expect(field).toHaveValue('hello');
    fireEvent.input(field, { target: { value: 'from the form' } });
    fireEvent.click(screen.getByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(send).toHaveBeenCalledWith(expect.objectContaining({ approved: true, params: { message: 'from the form' } }), { showsErrors: true }));
  });

  it('after a crash it asks Run again or Skip, and once resolved shows what the user decided', async () => {
    const { client, send } = fakeClient();
    const [block, setBlock] = createSignal(pendingCall({ status: 'interrupted', result: 'It may or may not have run.' }));
    const [approval, setApproval] = createSignal(approvalOf({ kind: 'rerun' }));
    render(() => <ToolCallCard block={block()} approval={approval()} {...target} client={client} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Skip' }));
    await waitFor(() => expect(send).toHaveBeenCalledWith(expect.objectContaining({ approved: false }), { showsErrors: true }));
    setBlock(pendingCall({ status: 'denied', result: 'Not run.' }));
    setApproval(approvalOf({ status: 'denied', resolution: 'denied', response: { reason: 'too risky' } }));
    expect(screen.queryByRole('group', { name: /Tool call/ })).toBeNull();
    expect(screen.getByText('Denied: “too risky”')).toBeInTheDocument();
  });
});

describe('an elicitation', () => {
  const requestedSchema = {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'String', description: 'Your name' },
      check: { type: 'boolean', title: 'Boolean' },
      count: { type: 'integer', title: 'Integer' },
      color: { type: 'string', title: 'Enum', enum: ['red', 'green'] },
    },
    required: ['name'],
  };
  const block: ElicitationRequest = {
    type: 'request',
    kind: 'elicitation',
    requestId: 'el-1',
    toolCallId: 'call-1',
    payload: { serverName: 'everything', message: 'Please provide inputs for the following fields:', requestedSchema },
    status: 'pending',
  };

  it('is a group named by the message, fields labelled by titles; Submit sends typed content', async () => {
    const { client, send } = fakeClient();
    render(() => <ElicitationForm block={block} {...target} client={client} />);
    const group = screen.getByRole('group', { name: 'Please provide inputs for the following fields:' });
    fireEvent.input(within(group).getByRole('textbox', { name: 'String' }), { target: { value: 'Ada' } });
    fireEvent.click(within(group).getByRole('checkbox', { name: 'Boolean' }));
    fireEvent.input(within(group).getByRole('spinbutton', { name: 'Integer' }), { target: { value: '3' } });
    fireEvent.click(within(group).getByRole('radio', { name: 'green' }));
    fireEvent.click(within(group).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(send).toHaveBeenCalledWith({ type: 'request.resolve', ...target, requestId: 'el-1', approved: true, params: { name: 'Ada', check: true, count: 3, color: 'green' } }, { showsErrors: true }));
  });

  it('Decline and Cancel are two different answers', async () => {
    const { client, send } = fakeClient();
    render(() => <ElicitationForm block={block} {...target} client={client} />);
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(send).toHaveBeenCalledTimes(2));
    expect(send.mock.calls.map(([command]) => [command.approved, command.cancel])).toEqual([[false, undefined], [false, true]]);
  });

  it('says each field\'s problem beside it, marks it invalid, focuses the first, and sends nothing', async () => {
    const { client, send } = fakeClient();
    const properties: Record<string, unknown> = { name: { type: 'string', title: 'String' } };
    for (let index = 1; index <= 9; index += 1) properties[`extra${index}`] = { type: 'string', title: `Extra ${index}` };
    properties.email = { type: 'string', title: 'Email', format: 'email' };
    properties.age = { type: 'integer', title: 'Age', minimum: 0, maximum: 150 };
    const form: ElicitationRequest = { ...block, payload: { ...block.payload, requestedSchema: { type: 'object', properties, required: ['name'] } } };
    render(() => <ElicitationForm block={form} {...target} client={client} />);
    const group = screen.getByRole('group', { name: 'Please provide inputs for the following fields:' });
    const name = within(group).getByRole('textbox', { name: 'String' });
    // "required" is the control's to say, not a "*" in its name.
    expect(name).toHaveAccessibleName('String');
    expect(name).toHaveAttribute('aria-required', 'true');
    const email = within(group).getByRole('textbox', { name: 'Email' });
    const age = within(group).getByRole('spinbutton', { name: 'Age' });
    fireEvent.input(email, { target: { value: 'ada@' } });
    fireEvent.input(age, { target: { value: '200' } });
    fireEvent.click(within(group).getByRole('button', { name: 'Submit' }));

    await waitFor(() => expect(name).toHaveFocus());
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('Required: fill this in.');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Enter an email address, like name@example.com.');
    expect(age).toHaveAttribute('aria-invalid', 'true');
    expect(age).toHaveAccessibleDescription('Must be at most 150.');
    // Beside the field: the message is the next thing after the input, not at the bottom of the form.
    expect(age.nextElementSibling).toHaveTextContent('Must be at most 150.');
    expect(within(group).getByRole('textbox', { name: 'Extra 1' })).not.toHaveAttribute('aria-invalid');
    expect(send).not.toHaveBeenCalled();

    fireEvent.input(name, { target: { value: '   ' } });
    fireEvent.input(age, { target: { value: '-1' } });
    fireEvent.click(within(group).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(age).toHaveAccessibleDescription('Must be at least 0.'));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(send).not.toHaveBeenCalled();

    fireEvent.input(name, { target: { value: 'Ada' } });
    fireEvent.input(email, { target: { value: 'ada@example.com' } });
    fireEvent.input(age, { target: { value: '36' } });
    fireEvent.click(within(group).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(send).toHaveBeenCalledWith({ type: 'request.resolve', ...target, requestId: 'el-1', approved: true, params: { name: 'Ada', email: 'ada@example.com', age: 36 } }, { showsErrors: true }));
    expect(name).not.toHaveAttribute('aria-invalid');
  });

  it('once interrupted, says it can no longer be answered instead of offering a form', () => {
    const { client } = fakeClient();
    render(() => <ElicitationForm block={{ ...block, status: 'denied', resolution: 'interrupted' }} {...target} client={client} />);
    expect(screen.queryByRole('group', { name: /Please provide/ })).toBeNull();
    expect(screen.getByText(/No longer answerable/)).toBeInTheDocument();
  });
});

describe('a block kind from a newer Parley', () => {
  it('shows as plain text with a note, never as nothing or markup', () => {
    const message: Message = { id: 'm1', conversationId: 'c1', seq: 0, role: 'assistant', status: 'complete', createdAt: 0, updatedAt: 0, blocks: [{ type: 'hologram', text: '<b>beam</b> me' } as unknown as Block] };
    const { client } = fakeClient();
    render(() => <MessageView message={message} client={client as WorkerClient} />);
    expect(screen.getByText(/\(hologram\) is from a newer Parley/)).toBeInTheDocument();
    expect(screen.getByText('<b>beam</b> me')).toBeInTheDocument();
  });
});
