import { fireEvent, render, screen, waitFor, within } from '@solidjs/testing-library';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppEvent } from '../../src/schema/events';
import type { CommandEnvelope, WorkerMessage } from '../../src/schema/protocol';
import type { Conversation, Message, ProfileView, Settings } from '../../src/schema/records';
import { parseScript } from '../../src/schema/script';
import { createWorkerClient, type WorkerClient } from '../../src/ui/state/channel';
import { App } from '../../src/ui/shell/App';

/** A tiny in-memory worker on the far side of a MessageChannel. */
function createFakeWorker() {
  const channel = new MessageChannel();
  const conversations = new Map<string, Conversation>();
  const messages = new Map<string, Message[]>();
  let settings: Settings = { script: '[]', defaultProfileId: 'scripted' };
  let profiles: ProfileView[] = [{ id: 'scripted', name: 'Built-in demo', kind: 'scripted', baseUrl: '', model: '', apiKeyMasked: '' }];
  const commands: Array<{ type: string; [key: string]: unknown }> = [];
  /** Sync, off unless a test turns it on: then `runners` says which conversations another device runs. */
  const sync = { on: false, runners: {} as Record<string, { id: string; name: string }> };
  let clock = 100;
  const post = (message: WorkerMessage) => channel.port2.postMessage(message);
  const emit = (event: AppEvent) => post({ kind: 'event', event });
  const reply = (id: string, result: unknown) => post({ kind: 'reply', id, ok: true, result });
  const fail = (id: string, code: 'not_found' | 'invalid_command', message: string) => post({ kind: 'reply', id, ok: false, error: { code, message } });

  channel.port2.onmessage = (event: MessageEvent<CommandEnvelope>) => {
    const { id } = event.data;
    const command = event.data.command as { type: string; [key: string]: unknown };
    commands.push(command);
    const conversationId = command.conversationId as string;
    switch (command.type) {
      case 'conversation.list':
        return reply(id, [...conversations.values()]);
      case 'conversation.create': {
        // The UI names the new conversation itself, so its view opens at once.
        const conversation: Conversation = { id: command.conversationId as string, title: 'New chat', createdAt: clock, updatedAt: clock++, runState: 'idle', completedSteps: 0 };
        conversations.set(conversation.id, conversation);
        messages.set(conversation.id, []);
        emit({ type: 'conversation-upserted', conversation });
        return reply(id, conversation);
      }
      case 'conversation.open': {
        const conversation = conversations.get(conversationId);
        if (!conversation) return fail(id, 'not_found', 'No such conversation');
        return reply(id, { conversation, messages: messages.get(conversationId) });
      }
      case 'conversation.rename': {
        const runner = sync.runners[conversationId];
        if (runner) return post({ kind: 'reply', id, ok: false, error: { code: 'invalid_state', reason: 'runs_elsewhere', params: { device: runner.name }, message: 'Runs elsewhere.' } });
        const conversation = { ...conversations.get(conversationId)!, title: command.title as string, updatedAt: clock++ };
        conversations.set(conversationId, conversation);
        emit({ type: 'conversation-upserted', conversation });
        return reply(id, conversation);
      }
      case 'conversation.delete':
        conversations.delete(conversationId);
        emit({ type: 'conversation-deleted', conversationId });
        return reply(id, { conversationId });
      case 'message.send': {
        const list = messages.get(conversationId)!;
        const message: Message = { id: `m${list.length}`, conversationId, seq: list.length, role: 'user', blocks: [{ type: 'text', text: command.text as string }], status: 'complete', createdAt: clock, updatedAt: clock++ };
        list.push(message);
        const conversation = { ...conversations.get(conversationId)!, runState: 'running' as const, updatedAt: clock++ };
        conversations.set(conversationId, conversation);
        emit({ type: 'message-upserted', message });
        emit({ type: 'conversation-upserted', conversation });
        reply(id, { message });
        // Stream a reply, then ask a question.
        const answer: Message = { id: `m${list.length}`, conversationId, seq: list.length, role: 'assistant', blocks: [{ type: 'text', text: 'Thinking' }], status: 'streaming', createdAt: clock, updatedAt: clock++ };
        list.push(answer);
        emit({ type: 'message-upserted', message: answer });
        setTimeout(() => {
          const done: Message = { ...answer, blocks: [{ type: 'text', text: 'Thinking done' }], status: 'complete', usage: { outputTokens: 5 } };
          list[answer.seq] = done;
          emit({ type: 'message-upserted', message: done });
          const waiting = { ...conversations.get(conversationId)!, runState: 'awaiting_input' as const, updatedAt: clock++ };
          conversations.set(conversationId, waiting);
          emit({ type: 'conversation-upserted', conversation: waiting });
        }, 30);
        return;
      }
      case 'settings.get':
        return reply(id, settings);
      case 'settings.update':
        // As the worker does: a broken script is refused before anything is saved.
        if (typeof command.script === 'string') {
          const parsed = parseScript(command.script);
          if (!parsed.ok) return post({ kind: 'reply', id, ok: false, error: { code: 'invalid_command', reason: 'script_invalid', message: parsed.error, field: 'script' } });
        }
        settings = { ...settings, ...(command as Partial<Settings>) };
        delete (settings as { type?: string }).type;
        emit({ type: 'settings-changed', settings });
        return reply(id, settings);
      case 'profiles.list':
        return reply(id, profiles);
      case 'profiles.save': {
        const input = command.profile as ProfileView & { apiKey?: string };
        const saved: ProfileView = { id: input.id ?? 'p1', name: input.name, kind: input.kind, baseUrl: input.baseUrl, model: input.model, apiKeyMasked: input.apiKey ? 'sk-…abcd' : '' };
        profiles = [...profiles.filter((profile) => profile.id !== saved.id), saved];
        emit({ type: 'profiles-changed', profiles }); // as the real worker does: the store learns from events only
        return reply(id, saved);
      }
      case 'profiles.test':
        return reply(id, { ok: true, message: 'Connected: 2 models', models: ['gpt-a', 'gpt-b'] });
      case 'requests.listPending': {
        const waiting = [...conversations.values()].filter((conversation) => conversation.runState === 'awaiting_input');
        const question = { header: 'Pick', question: 'Which one?', options: [{ label: 'Alpha' }, { label: 'Beta' }] };
        return reply(id, waiting.map((conversation) => ({ conversationId: conversation.id, conversationTitle: conversation.title, messageId: 'm1', request: { type: 'request', kind: 'question', requestId: 'q1', toolCallId: 'q1', status: 'pending', payload: { questions: [question] } } })));
      }
      case 'mcp.list':
        return reply(id, []);
      // Sync is off here, as on a first start: the app asks its status, Settings → Sync shows it.
      case 'sync.status':
        return reply(id, { state: sync.on ? 'synced' : 'off', device: { id: 'this-device', name: '' } });
      case 'sync.runners':
        return reply(id, { ...sync.runners });
      case 'conversation.takeOver':
        delete sync.runners[conversationId];
        return reply(id, { conversationId });
      case 'storage.conversationSizes':
        return reply(id, { conversations: conversations.size, totalBytes: 0, largest: [] });
      case 'conversation.saveDraft':
        return reply(id, { saved: true });
      case 'conversation.setProfile': {
        const conversation = { ...conversations.get(conversationId)!, profileId: command.profileId as string };
        conversations.set(conversationId, conversation);
        return reply(id, conversation);
      }
      default:
        return reply(id, { conversationId });
    }
  };
  emit({ type: 'worker-ready' });
  return { port: channel.port1, commands, emit, conversations, messages, sync, settings: () => settings, firstId: () => [...conversations.keys()][0]! };
}

beforeEach(() => {
  window.location.hash = '';
});
afterEach(() => {
  window.location.hash = '';
});

describe('App (smoke, fake worker)', () => {
  it('creates a conversation, sends, streams, shows status, renames and deletes', async () => {
    const worker = createFakeWorker();
    render(() => <App client={createWorkerClient(worker.port)} />);
    expect(screen.getByRole('navigation', { name: 'Conversations' })).toBeInTheDocument();
    expect(screen.getByText(/Plan my weekend/)).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'New conversation' }));
    await waitFor(() => expect(window.location.hash).toBe(`#/c/${worker.firstId()}`));
    const link = await screen.findByRole('link', { name: 'New chat' });
    expect(link).toHaveAttribute('href', `#/c/${worker.firstId()}`);
    await screen.findByRole('heading', { name: 'New chat' });

    const textbox = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.input(textbox, { target: { value: 'Plan my weekend' } });
    fireEvent.keyDown(textbox, { key: 'Enter' });
    await screen.findByRole('article', { name: 'You' });
    await waitFor(() => expect(screen.getByRole('article', { name: 'Parley' })).toHaveTextContent('Thinking done'));
    await screen.findByText('Waiting for your answer');
    const item = link.closest('li')!;
    expect(item).toHaveAttribute('data-pending', 'true');
    expect(within(item).getByText('Question waiting')).toBeInTheDocument();
    expect(screen.getByText('5 tokens out')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Rename conversation' }));
    const titleField = await screen.findByRole('textbox', { name: 'Conversation title' });
    fireEvent.input(titleField, { target: { value: 'Weekend' } });
    fireEvent.submit(titleField.closest('form')!);
    await screen.findByRole('heading', { name: 'Weekend' });
    await screen.findByRole('link', { name: 'Weekend' });

    fireEvent.click(screen.getByRole('button', { name: 'Delete conversation' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Weekend' })).toBeNull());
    expect(window.location.hash).toBe('#/');
    expect(worker.commands.map((command) => command.type)).toContain('conversation.delete');
  });

  it('reads the pending requests once for the inbox, the pills and the notifications', async () => {
    const worker = createFakeWorker();
    worker.conversations.set('w1', { id: 'w1', title: 'Trip', createdAt: 1, updatedAt: 1, runState: 'awaiting_input', completedSteps: 1 });
    render(() => <App client={createWorkerClient(worker.port)} />);
    // The inbox shows once the read is answered; all three asked in the frame the waiting conversation was listed.
    await screen.findByRole('button', { name: /Which one\?/ });
    expect(worker.commands.filter((command) => command.type === 'requests.listPending')).toHaveLength(1);
  });

  it('the alert that points to "Continue on this device" goes once the conversation is taken over', async () => {
    const worker = createFakeWorker();
    worker.conversations.set('r1', { id: 'r1', title: 'Trip', createdAt: 1, updatedAt: 1, runState: 'idle', completedSteps: 0 });
    worker.messages.set('r1', []);
    worker.sync.on = true;
    worker.sync.runners.r1 = { id: 'laptop-id', name: 'Laptop' };
    window.location.hash = '#/c/r1';
    render(() => <App client={createWorkerClient(worker.port)} />);
    await screen.findByText('Runs on Laptop');

    fireEvent.click(screen.getByRole('button', { name: 'Rename conversation' }));
    const titleField = await screen.findByRole('textbox', { name: 'Conversation title' });
    fireEvent.input(titleField, { target: { value: 'Weekend' } });
    fireEvent.submit(titleField.closest('form')!);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This conversation runs on Laptop. Press “Continue on this device” to change it here.');

    fireEvent.click(screen.getByRole('button', { name: 'Continue on this device' }));
    await waitFor(() => expect(screen.queryByText('Runs on Laptop')).toBeNull());
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("asks sync's status after the first screen's reads, not beside them", async () => {
    const worker = createFakeWorker();
    render(() => <App client={createWorkerClient(worker.port)} />);
    await waitFor(() => expect(worker.commands.map((command) => command.type)).toContain('sync.status'));
    const types = worker.commands.map((command) => command.type);
    expect(types.indexOf('sync.status')).toBeGreaterThan(types.indexOf('conversation.list'));
  });

  it('shows Stop while running, Continue when interrupted, run notices and a storage banner', async () => {
    const worker = createFakeWorker();
    render(() => <App client={createWorkerClient(worker.port)} />);
    fireEvent.click(screen.getByRole('button', { name: 'New conversation' }));
    await screen.findByRole('heading', { name: 'New chat' });
    const base = worker.conversations.get(worker.firstId())!;
    worker.emit({ type: 'conversation-upserted', conversation: { ...base, runState: 'running' } });
    await screen.findByRole('button', { name: 'Stop' });
    expect(screen.getByText('Writing…')).toBeInTheDocument();
    worker.emit({ type: 'conversation-upserted', conversation: { ...base, runState: 'interrupted' } });
    await screen.findByRole('button', { name: 'Continue' });
    worker.emit({ type: 'conversation-upserted', conversation: { ...base, runState: 'waiting_network' } });
    await screen.findByRole('button', { name: 'Retry' });
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();
    worker.emit({ type: 'run-notice', conversationId: worker.firstId(), notice: { kind: 'retrying', message: '429', retryAt: Date.now() + 4000 } });
    await screen.findByText(/Retrying in [34]s…/);
    worker.emit({ type: 'conversation-upserted', conversation: { ...base, runState: 'error', runError: { code: 'auth', message: 'Bad API key' } } });
    // The status line words the code; the provider's own text is not the message.
    await screen.findByText(/^The API key was rejected\./);
    expect(screen.queryByText('Bad API key')).toBeNull();
    worker.emit({ type: 'storage-error', message: 'Quota exceeded' });
    await waitFor(() => expect(screen.getAllByRole('alert').some((alert) => alert.textContent?.includes('Quota exceeded'))).toBe(true));
  });

  it('settings: Save sends the script at once, so a conversation started right after already uses it', async () => {
    window.location.hash = '#/settings';
    const worker = createFakeWorker();
    const client = createWorkerClient(worker.port);
    const sent: string[] = [];
    const watched: WorkerClient = { send: (command) => (sent.push(command.type), client.send(command)), onEvent: (listener) => client.onEvent(listener) };
    render(() => <App client={watched} />);
    // Settings is a lazy chunk: the first test to open it waits for its modules to be transformed, seconds on 2 cores.
    const script = await screen.findByRole('textbox', { name: 'Script' }, { timeout: 15_000 });
    fireEvent.input(script, { target: { value: '[{"text":"hi"}]' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    fireEvent.click(screen.getAllByRole('button', { name: 'New conversation' })[0]!);
    // In the order clicked, before anything else ran: the worker handles commands in the order they come.
    expect(sent.filter((type) => type === 'settings.update' || type === 'conversation.create')).toEqual(['settings.update', 'conversation.create']);
    await waitFor(() => expect(worker.settings().script).toBe('[{"text":"hi"}]'));
    await waitFor(() => expect(worker.conversations.size).toBe(1));
  });

  it('settings: invalid script shows an alert and saves nothing; a remote profile saves and tests', async () => {
    window.location.hash = '#/settings';
    const worker = createFakeWorker();
    render(() => <App client={createWorkerClient(worker.port)} />);
    const provider = await screen.findByRole('combobox', { name: 'Provider' });
    expect(within(provider).getAllByRole('option').map((option) => option.textContent)).toEqual(['Scripted', 'OpenAI-compatible', 'Anthropic', 'In-browser']);
    const script = screen.getByRole('textbox', { name: 'Script' });
    fireEvent.input(script, { target: { value: '{ not json' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/not valid JSON/);
    // Shown beside the script, once: no toast says it again.
    expect(screen.getAllByText(/not valid JSON/)).toHaveLength(1);
    expect(worker.settings().script).toBe('[]');

    fireEvent.input(script, { target: { value: '[{"text":"hi"}]' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(worker.settings()).toMatchObject({ script: '[{"text":"hi"}]', defaultProfileId: 'scripted' }));

    fireEvent.change(provider, { target: { value: 'openai-compatible' } });
    fireEvent.input(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Local' } });
    fireEvent.input(screen.getByRole('textbox', { name: 'Base URL' }), { target: { value: 'http://localhost:1234/v1' } });
    const key = screen.getByLabelText('API key');
    expect(key).toHaveAttribute('type', 'password');
    fireEvent.input(key, { target: { value: 'sk-secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    // Settings has other statuses (Sync's): the test's is the one that says the result.
    await waitFor(() => expect(screen.getAllByRole('status').some((status) => status.textContent?.includes('Connected: 2 models'))).toBe(true));
    fireEvent.input(screen.getByRole('combobox', { name: 'Model' }), { target: { value: 'gpt-a' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(worker.commands.some((command) => command.type === 'profiles.save')).toBe(true));
    expect(worker.commands.find((command) => command.type === 'profiles.save')).toMatchObject({ profile: { name: 'Local', kind: 'openai-compatible', apiKey: 'sk-secret', model: 'gpt-a' } });
    await waitFor(() => expect(screen.getByLabelText('API key')).toHaveAttribute('placeholder', 'sk-…abcd'));
    await screen.findByText('Local');
  });

  it('puts a waiting question into the title while hidden, and restores it when seen', async () => {
    const worker = createFakeWorker();
    render(() => <App client={createWorkerClient(worker.port)} />);
    fireEvent.click(screen.getByRole('button', { name: 'New conversation' }));
    await screen.findByRole('heading', { name: 'New chat' });
    document.title = 'Parley';
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    worker.emit({ type: 'conversation-upserted', conversation: { ...worker.conversations.get(worker.firstId())!, runState: 'awaiting_input' } });
    await waitFor(() => expect(document.title).toBe('(1) Waiting for you · Parley'));
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
    document.dispatchEvent(new Event('visibilitychange'));
    expect(document.title).toBe('Parley');
  });
});
