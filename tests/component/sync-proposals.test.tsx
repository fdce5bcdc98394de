import { fireEvent, render, screen, waitFor, within } from '@solidjs/testing-library';
import { createSignal } from 'solid-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest, ElicitationRequest, QuestionRequest, ToolCallBlock } from '../../src/schema/messages/blocks';
import { questionRequest, type QuestionOverrides } from './question-request';
import { WireError } from '../../src/schema/protocol';
import type { Question } from '../../src/schema/forms/question';
import type { Conversation, Message } from '../../src/schema/records';
import { AppContext, type AppServices } from '../../src/ui/state/app-context';
import { ChatHeader } from '../../src/ui/chat/ChatHeader';
import { ChatView } from '../../src/ui/chat/ChatView';
import { QuestionForm } from '../../src/ui/question/QuestionForm';
import { ElicitationForm } from '../../src/ui/requests/ElicitationForm';
import { ToolCallCard } from '../../src/ui/requests/ToolCallCard';
import { describeError } from '../../src/ui/common/error-words';
import { setLocale } from '../../src/ui/i18n/i18n';
import { createUiStore } from '../../src/ui/state/store';

const laptop = { id: 'laptop-id', name: 'Laptop' };
const phone = { id: 'phone-id', name: 'Phone' };
const resolvedAt = Date.UTC(2026, 0, 1);

afterEach(() => setLocale('en'));

const budget: Question = { header: 'Budget', question: 'What is your budget?', options: [{ label: 'Low' }, { label: 'High' }], multiple: false, custom: true };


function pendingQuestion(overrides: QuestionOverrides = {}): QuestionRequest {
  return questionRequest([budget], overrides);
}

function conversation(overrides: Partial<Conversation> = {}): Conversation {
  return { id: 'c1', title: 'Trip plans', createdAt: 1, updatedAt: 1, runState: 'idle', completedSteps: 0, ...overrides };
}

/** A real store and a worker that answers through `reply`, for components that read the app's services. */
function services(reply: (command: Record<string, unknown>) => unknown) {
  const send = vi.fn(async (command: Record<string, unknown>) => reply(command));
  const { state, dispatch } = createUiStore();
  const app = { client: { send, onEvent: () => () => undefined }, state, dispatch } as unknown as AppServices;
  return { app, send, state, dispatch };
}

describe('a conversation another device runs (chat header)', () => {
  function renderHeader(reply: (command: Record<string, unknown>) => unknown) {
    const built = services(reply);
    built.dispatch({ type: 'sync-status', status: { state: 'synced', device: phone } });
    built.dispatch({ type: 'sync-runners', runners: { c1: laptop } });
    render(() => (
      <AppContext.Provider value={built.app}>
        <ChatHeader conversation={conversation()} profiles={[]} defaultProfileId="scripted" />
      </AppContext.Provider>
    ));
    return built;
  }

  it('says where it runs; "Continue on this device" takes it over, and the notice goes once the runners say so', async () => {
    const { send } = renderHeader((command) => {
      if (command.type === 'conversation.takeOver') return { conversationId: 'c1' };
      if (command.type === 'sync.runners') return {};
      return undefined;
    });
    // The notice's code loads when another device runs the conversation.
    expect(await screen.findByText('Runs on Laptop')).toHaveAttribute('role', 'status');
    fireEvent.click(screen.getByRole('button', { name: 'Continue on this device' }));
    await waitFor(() => expect(screen.queryByText('Runs on Laptop')).toBeNull());
    expect(send).toHaveBeenCalledWith({ type: 'conversation.takeOver', conversationId: 'c1' }, { showsErrors: true });
    expect(screen.queryByRole('button', { name: 'Continue on this device' })).toBeNull();
  });

  it('a lost take-over is said beside the button; a device without a name is "another device"', async () => {
    const { dispatch } = renderHeader((command) => {
      if (command.type === 'conversation.takeOver') throw new WireError({ code: 'invalid_state', reason: 'taken_over_elsewhere', message: 'taken over' });
      return undefined;
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Continue on this device' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Another device took it over first.');
    dispatch({ type: 'sync-runners', runners: { c1: { id: 'tablet-id', name: '' } } });
    await waitFor(() => expect(screen.getByText('Runs on another device')).toBeInTheDocument());
  });

  it('shows nothing of it for a conversation this device runs', () => {
    const built = services(() => undefined);
    built.dispatch({ type: 'sync-runners', runners: { other: laptop } });
    render(() => (
      <AppContext.Provider value={built.app}>
        <ChatHeader conversation={conversation()} profiles={[]} defaultProfileId="scripted" />
      </AppContext.Provider>
    ));
    expect(screen.queryByRole('button', { name: 'Continue on this device' })).toBeNull();
  });
});

describe('proposals: what this device sends to the device that runs the conversation', () => {
  it('an answer proposed keeps the form and its answers, says where it went, and cannot be sent twice', async () => {
    const send = vi.fn(async (command: Record<string, unknown>) => (command.type === 'request.resolve' ? { message: {}, proposedTo: laptop } : { saved: true }));
    render(() => <QuestionForm block={pendingQuestion()} conversationId="c1" messageId="m1" client={{ send } as never} thisDevice="phone-id" />);
    fireEvent.click(screen.getByRole('radio', { name: 'Low' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit answers' }));
    await waitFor(() => expect(screen.getByText('Sent to Laptop. It will go on there once it receives it.')).toHaveAttribute('role', 'status'));
    expect(screen.getByRole('radio', { name: 'Low' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Submit answers' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Dismiss' })).toBeDisabled();
    expect(screen.queryByRole('region', { name: 'Parley’s questions' })).toBeNull();
  });

  it('offline, nothing has left this device: the answer, Allow and a message say they wait here, then "Sent" once online', async () => {
    const built = services((command) => {
      if (command.type === 'conversation.open') return { conversation: conversation(), messages: [], earlier: 0 };
      if (command.type === 'message.send') return { proposedTo: laptop };
      if (command.type === 'question.answer' || command.type === 'request.resolve') return { message: {}, proposedTo: laptop };
      return { saved: true };
    });
    built.dispatch({ type: 'sync-status', status: { state: 'offline', device: phone } });
    const call: ToolCallBlock = { type: 'tool_call', toolCallId: 'call-2', toolName: 'mcp__files__delete', args: {}, status: 'pending' };
    const approval: ApprovalRequest = { type: 'request', kind: 'permission', requestId: 'call-2', toolCallId: 'call-2', status: 'pending', payload: { toolName: 'mcp__files__delete' } };
    render(() => (
      <AppContext.Provider value={built.app}>
        <QuestionForm block={pendingQuestion()} conversationId="c1" messageId="m1" client={built.app.client} thisDevice="phone-id" />
        <ToolCallCard block={call} approval={approval} conversationId="c1" messageId="m1" client={built.app.client} thisDevice="phone-id" />
        <ChatView conversationId="c1" />
      </AppContext.Provider>
    ));
    fireEvent.click(screen.getByRole('radio', { name: 'Low' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit answers' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(built.state.messages.c1).toEqual([]));
    fireEvent.input(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'Book the train' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const waiting = 'Not sent yet: this device is offline. It waits here and goes to Laptop once this device is online.';
    await waitFor(() => expect(screen.getAllByText(waiting)).toHaveLength(2));
    await screen.findByText('Waits on this device until it is online, then goes to Laptop');
    expect(screen.queryByText(/Sent to Laptop/)).toBeNull();

    built.dispatch({ type: 'sync-status', status: { state: 'error', reason: 'unauthorized', device: phone } });
    await waitFor(() => expect(screen.getAllByText(/^Not sent yet: sync stopped on an error/)).toHaveLength(2));
    built.dispatch({ type: 'sync-status', status: { state: 'syncing', device: phone } });
    await waitFor(() => expect(screen.getAllByText('Sent to Laptop. It will go on there once it receives it.')).toHaveLength(2));
    expect(screen.getByText('Sent to Laptop')).toBeInTheDocument();
  });

  it('the proposed answer applied by the runner is summed up as this device\'s own: "Answered", nothing "not used"', async () => {
    const send = vi.fn(async (command: Record<string, unknown>) => (command.type === 'request.resolve' ? { message: {}, proposedTo: laptop } : { saved: true }));
    const [block, setBlock] = createSignal(pendingQuestion());
    render(() => <QuestionForm block={block()} conversationId="c1" messageId="m1" client={{ send } as never} thisDevice="phone-id" />);
    fireEvent.click(screen.getByRole('radio', { name: 'Low' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit answers' }));
    await screen.findByText(/Sent to Laptop/);
    setBlock(pendingQuestion({ status: 'success', resolution: 'answered', answers: [{ selected: ['Low'] }], resolvedAt, resolvedOn: phone }));
    const summary = screen.getByRole('region', { name: 'Parley’s questions' });
    expect(within(summary).getByText('Answered')).toBeInTheDocument();
    expect(within(summary).queryByText(/not used/)).toBeNull();
    expect(screen.queryByText(/Sent to Laptop/)).toBeNull();
  });

  it('answered on another device first: "Answered on <device>", and this device\'s different answers shown as not used', async () => {
    const send = vi.fn(async (command: Record<string, unknown>) => (command.type === 'request.resolve' ? { message: {}, proposedTo: laptop } : { saved: true }));
    const [block, setBlock] = createSignal(pendingQuestion());
    render(() => <QuestionForm block={block()} conversationId="c1" messageId="m1" client={{ send } as never} thisDevice="phone-id" />);
    fireEvent.click(screen.getByRole('radio', { name: 'Low' }));
    fireEvent.click(screen.getByRole('button', { name: 'Submit answers' }));
    await screen.findByText(/Sent to Laptop/);
    setBlock(pendingQuestion({ status: 'success', resolution: 'answered', answers: [{ selected: ['High'] }], resolvedAt, resolvedOn: laptop }));
    const summary = screen.getByRole('region', { name: 'Parley’s questions' });
    expect(within(summary).getByText('Answered on Laptop')).toBeInTheDocument();
    expect(within(summary).getByText('Budget: High')).toBeInTheDocument();
    expect(within(summary).getByText('Your answers on this device were not used: Budget: Low')).toBeInTheDocument();
  });

  it('names the device whether or not this page watched, and says nothing was lost when the answers were the same', () => {
    const { unmount } = render(() => (
      <QuestionForm block={pendingQuestion({ status: 'denied', resolution: 'dismissed', resolvedAt, resolvedOn: laptop })} conversationId="c1" messageId="m1" client={{ send: vi.fn() } as never} thisDevice="phone-id" />
    ));
    expect(screen.getByText('Dismissed on Laptop')).toBeInTheDocument();
    unmount();

    const [block, setBlock] = createSignal(pendingQuestion());
    render(() => <QuestionForm block={block()} conversationId="c1" messageId="m1" client={{ send: vi.fn(async () => ({ saved: true })) } as never} thisDevice="phone-id" />);
    fireEvent.click(screen.getByRole('radio', { name: 'High' }));
    setBlock(pendingQuestion({ status: 'success', resolution: 'answered', answers: [{ selected: ['High'] }], resolvedAt, resolvedOn: laptop }));
    expect(screen.getByText('Answered on Laptop')).toBeInTheDocument();
    expect(screen.queryByText(/not used/)).toBeNull();
  });

  it('a decision made on this device, or before this device\'s id is known, is not said to be elsewhere', () => {
    render(() => (
      <>
        <QuestionForm block={pendingQuestion({ status: 'success', resolution: 'answered', answers: [{ selected: ['Low'] }], resolvedAt, resolvedOn: phone })} conversationId="c1" messageId="m1" client={{ send: vi.fn() } as never} thisDevice="phone-id" />
        <QuestionForm block={pendingQuestion({ toolCallId: 'call-2', status: 'success', resolution: 'answered', answers: [{ selected: ['Low'] }], resolvedAt, resolvedOn: laptop })} conversationId="c1" messageId="m1" client={{ send: vi.fn() } as never} />
      </>
    ));
    expect(screen.getAllByText('Answered')).toHaveLength(2);
    expect(screen.queryByText(/Answered on/)).toBeNull();
  });

  it('tool calls and server forms: Allow proposed says where it went; decided elsewhere says "Decided on <device>"', async () => {
    const call: ToolCallBlock = { type: 'tool_call', toolCallId: 'call-1', toolName: 'mcp__files__delete', args: {}, status: 'pending' };
    const asked: ApprovalRequest = { type: 'request', kind: 'permission', requestId: 'call-1', toolCallId: 'call-1', status: 'pending', payload: { toolName: 'mcp__files__delete' } };
    const send = vi.fn(async () => ({ message: {}, proposedTo: laptop }));
    const [block, setBlock] = createSignal(call);
    const [approval, setApproval] = createSignal(asked);
    render(() => <ToolCallCard block={block()} approval={approval()} conversationId="c1" messageId="m1" client={{ send } as never} thisDevice="phone-id" />);
    fireEvent.click(await screen.findByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(screen.getByText('Sent to Laptop. It will go on there once it receives it.')).toHaveAttribute('role', 'status'));
    expect(screen.getByRole('button', { name: 'Allow' })).toBeDisabled();
    setBlock({ ...call, status: 'denied' });
    setApproval({ ...asked, status: 'denied', resolution: 'denied', resolvedAt, resolvedOn: laptop });
    expect(screen.getByText(/Decided on Laptop/).closest('p')).toHaveTextContent('Denied · Decided on Laptop');

    const form: ElicitationRequest = { type: 'request', kind: 'elicitation', requestId: 'e1', toolCallId: 'call-1', payload: { serverName: 'files', message: 'Which folder?', requestedSchema: { type: 'object', properties: {} } }, status: 'denied', resolution: 'declined', resolvedAt, resolvedOn: laptop };
    render(() => <ElicitationForm block={form} conversationId="c1" messageId="m1" client={{ send } as never} thisDevice="phone-id" />);
    expect(screen.getByText(/Declined/)).toHaveTextContent('Declined · Decided on Laptop');
  });

  it('a message sent to the runner is a note "Sent to <device>", not a message, until the runner\'s record comes back', async () => {
    const built = services((command) => {
      if (command.type === 'conversation.open') return { conversation: conversation(), messages: [], earlier: 0 };
      if (command.type === 'message.send') return { proposedTo: laptop };
      if (command.type === 'run.stop') return { conversationId: 'c1', proposedTo: laptop };
      return undefined;
    });
    built.dispatch({ type: 'conversation-upserted', conversation: conversation() });
    render(() => (
      <AppContext.Provider value={built.app}>
        <ChatView conversationId="c1" />
      </AppContext.Provider>
    ));
    await waitFor(() => expect(built.state.messages.c1).toEqual([]));
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.input(box, { target: { value: 'Book the train' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const note = await screen.findByText('Sent to Laptop');
    const status = note.closest('[role="status"]') as HTMLElement;
    expect(within(status).getByText('Book the train')).toBeInTheDocument();
    expect(box).toHaveValue('');
    expect(screen.queryByRole('article')).toBeNull();

    const message: Message = { id: 'm1', conversationId: 'c1', seq: 0, role: 'user', blocks: [{ type: 'text', text: 'Book the train' }], status: 'complete', createdAt: 2, updatedAt: 2 };
    built.dispatch({ type: 'message-upserted', message });
    await waitFor(() => expect(screen.queryByText('Sent to Laptop')).toBeNull());
  });
});

describe('a conversation opened while its records still arrive (sync, another tab)', () => {
  it('keeps a message whose event came before the opening snapshot that missed it: the question shows', async () => {
    // What the channel delivers in that order when a record is stored between the opening's reads: its event first
    // (a reply flushes the events queued before it), then the snapshot read before it was stored.
    const asked: Message = { id: 'm1', conversationId: 'c1', seq: 1, parentId: 'm0', role: 'assistant', blocks: [{ type: 'text', text: 'Before I start.' }, pendingQuestion()], status: 'complete', createdAt: 2, updatedAt: 2 };
    const prompt: Message = { id: 'm0', conversationId: 'c1', seq: 0, role: 'user', blocks: [{ type: 'text', text: 'Plan my trip' }], status: 'complete', createdAt: 1, updatedAt: 1 };
    const built = services((command) => {
      if (command.type !== 'conversation.open') return undefined;
      built.dispatch({ type: 'message-upserted', message: asked });
      return { conversation: conversation({ runState: 'awaiting_input' }), messages: [prompt], earlier: 0 };
    });
    built.dispatch({ type: 'conversation-upserted', conversation: conversation({ runState: 'awaiting_input' }) });
    render(() => (
      <AppContext.Provider value={built.app}>
        <ChatView conversationId="c1" />
      </AppContext.Provider>
    ));
    await waitFor(() => expect(built.state.messages.c1?.map((message) => message.id)).toEqual(['m0', 'm1']));
    expect(await screen.findByRole('form', { name: 'Question from Parley' })).toBeInTheDocument();
  });
});

describe('error words of sync', () => {
  it('names the device a conversation runs on, or "another device"', async () => {
    expect(describeError(new WireError({ code: 'invalid_state', reason: 'runs_elsewhere', params: { device: 'Laptop' }, message: 'runs elsewhere' })).text).toBe(
      'This conversation runs on Laptop. Press “Continue on this device” to change it here.',
    );
    expect(describeError(new WireError({ code: 'invalid_state', reason: 'runs_elsewhere', message: 'runs elsewhere' })).text).toBe(
      'This conversation runs on another device. Press “Continue on this device” to change it here.',
    );
    expect(describeError(new WireError({ code: 'invalid_state', reason: 'sync_off', message: 'off' })).text).toBe('Sync is off. Turn it on in Settings → Sync first.');
    await setLocale('zh-CN');
    expect(describeError(new WireError({ code: 'invalid_command', reason: 'already_sent', message: 'sent' })).text).toBe('这条消息已经发送过了。');
  });
});
