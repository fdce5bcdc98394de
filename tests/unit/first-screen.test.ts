import { describe, expect, it, vi } from 'vitest';
import { answerCommand, memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState } from './host-harness';
import { openParleyDatabase } from '../../src/worker/store/database';
import { createAfterFirstScreen, createFirstScreen } from '../../src/worker/first-screen/first-screen';
import type { PeerHint } from '../../src/worker/tabs/peer-channel';
import type { Locks } from '../../src/worker/runs/locks';
import type { AppEvent } from '../../src/schema/events';
import type { Profile } from '../../src/schema/records';
import { VIEW_LOCK_PREFIX } from '../../src/schema/limits';
import { KEPT_MIRROR_KEY } from '../../src/worker/sync/device';

// The worker answers the first screen without loading zod, the loop, MCP or sync, through the same reads the full host
// calls (first-screen-reads.ts); anything else, or a stored state that needs a repair, a resume or sync, goes to the
// full host.

const ASK = { text: 'Before I plan:', toolCalls: [{ name: 'question', args: { questions: [{ header: 'Trip', question: 'Where to?', options: [{ label: 'Beach' }, { label: 'City' }] }] } }] };

/** A worker's start as main.ts makes it, over the database a test filled; `hostsCreated` counts full hosts. */
async function openWorker(databaseName: string, locks: Locks) {
  const database = await openParleyDatabase(databaseName);
  const events: AppEvent[] = [];
  const hints: PeerHint[] = [];
  const prepared: string[] = [];
  let hostsCreated = 0;
  let warmed = 0;
  let counter = 0;
  const screen = createFirstScreen({
    database,
    locks,
    newId: () => `device-${(counter += 1)}`,
    now: () => Date.now(),
    post: (event) => events.push(event),
    broadcast: (hint) => hints.push(hint),
    prepareModel: (profile: Profile) => prepared.push(profile.id),
    warmHost: () => {
      warmed += 1;
    },
    loadHost: async () => {
      hostsCreated += 1;
      return (await openTab({ databaseName, locks })).host;
    },
  });
  return { screen, events, hints, prepared, hostsCreated: () => hostsCreated, warmed: () => warmed, close: () => database.close() };
}

/** A database with an idle conversation of two messages, as a tab left it. */
async function idleDatabase() {
  const databaseName = uniqueDatabaseName();
  const locks = memoryLocks();
  const tab = await openTab({ databaseName, locks });
  await tab.send({ type: 'settings.update', script: script([{ text: 'Hello back.' }]) });
  const conversation = await tab.send({ type: 'conversation.create', conversationId: 'talked' });
  await tab.send({ type: 'message.send', conversationId: conversation.id, text: 'Hello' });
  await waitForRunState(tab, conversation.id, ['idle']);
  return { databaseName, locks, tab, conversationId: conversation.id };
}

describe('the worker\'s first screen', () => {
  it('answers the first screen\'s commands as the full host does, without creating it', async () => {
    const { databaseName, locks, tab, conversationId } = await idleDatabase();
    const worker = await openWorker(databaseName, locks);
    expect(await worker.screen.started).toBe(false);
    for (const command of [
      { type: 'settings.get' }, { type: 'profiles.list' }, { type: 'sync.status' }, { type: 'conversation.list' }, { type: 'requests.listPending' },
      { type: 'conversation.open', conversationId }, { type: 'conversation.messages', conversationId, limit: 1 },
    ]) {
      expect(await worker.screen.handle(command), command.type).toEqual(await tab.host.handle(command));
    }
    // Opening a conversation readies its provider, as the full host does.
    expect(worker.prepared).toEqual(['scripted']);
    expect(worker.hostsCreated()).toBe(0);
    expect(worker.screen.createdHost()).toBeUndefined();
    worker.close();
    tab.close();
  });

  it('says sync is off as the full host says it, a mirror kept by "Turn off sync" included', async () => {
    const { databaseName, locks, tab } = await idleDatabase();
    const database = await openParleyDatabase(databaseName);
    await database.put('settings', { url: 'https://sync.example', salt: 'kept' }, KEPT_MIRROR_KEY);
    database.close();
    const worker = await openWorker(databaseName, locks);
    expect(await worker.screen.handle({ type: 'sync.status' })).toMatchObject({ state: 'off', mirrorKept: true });
    expect(await worker.screen.handle({ type: 'sync.status' })).toEqual(await tab.host.handle({ type: 'sync.status' }));
    expect(worker.hostsCreated()).toBe(0);
    worker.close();
    tab.close();
  });

  it('refuses a conversation that is gone in the full host\'s words', async () => {
    const { databaseName, locks, tab } = await idleDatabase();
    const worker = await openWorker(databaseName, locks);
    await expect(worker.screen.handle({ type: 'conversation.open', conversationId: 'gone' })).rejects.toMatchObject({ code: 'not_found', reason: 'conversation_gone' });
    await expect(worker.screen.handle({ type: 'conversation.messages', conversationId: 'gone', limit: 5 })).rejects.toMatchObject({ code: 'not_found', reason: 'conversation_gone' });
    expect(worker.hostsCreated()).toBe(0);
    worker.close();
    tab.close();
  });

  it('discards unused conversations, except those on screen, and tells this tab and the others', async () => {
    const { databaseName, locks, tab } = await idleDatabase();
    // Each page holds a view lock on what it shows: these three are on screen somewhere while they are made.
    const views = new Map<string, () => void>();
    for (const conversationId of ['shown-elsewhere', 'left', 'on-screen']) {
      views.set(conversationId, await locks.acquire(VIEW_LOCK_PREFIX + conversationId));
      await tab.send({ type: 'conversation.create', conversationId });
    }
    views.get('left')!();
    views.get('on-screen')!(); // this page's reload: its lock is gone, and it names the conversation as `keep`
    // A clean-up takes only what was made before it was asked (unused-conversations.ts): this one comes a tick later.
    const madeBy = Date.now();
    while (Date.now() <= madeBy) await new Promise((resolve) => setTimeout(resolve, 1));
    const worker = await openWorker(databaseName, locks);
    expect(await worker.screen.handle({ type: 'conversation.discardUnused', keep: 'on-screen' })).toEqual({ removed: ['left'] });
    expect(worker.events).toEqual([{ type: 'conversation-deleted', conversationId: 'left' }]);
    expect(worker.hints).toEqual([{ kind: 'conversation', conversationId: 'left', messageIds: [] }]);
    expect(((await worker.screen.handle({ type: 'conversation.list' })) as { id: string }[]).map((conversation) => conversation.id).sort()).toEqual(['on-screen', 'shown-elsewhere', 'talked']);
    expect(worker.hostsCreated()).toBe(0);
    worker.close();
    tab.close();
  });

  it('leaves every other command, and any it cannot vouch for, to the full host and its zod validation', async () => {
    const { databaseName, locks, tab, conversationId } = await idleDatabase();
    const worker = await openWorker(databaseName, locks);
    await expect(worker.screen.handle({ type: 'conversation.open', conversationId: '' })).rejects.toMatchObject({ code: 'invalid_command', field: 'conversationId' });
    expect(worker.hostsCreated()).toBe(1);
    await expect(worker.screen.handle({ type: 'message.send', conversationId, text: 'x'.repeat(100_001) })).rejects.toMatchObject({ code: 'invalid_command', field: 'text' });
    // Once the full host exists, it answers the first screen too (one copy of the settings, one run manager).
    await worker.screen.handle({ type: 'conversation.list' });
    expect(worker.hostsCreated()).toBe(1);
    worker.close();
    tab.close();
  });

  /** A database whose one conversation waits for the answer to a question, as a reload finds it. */
  async function pendingQuestionDatabase() {
    const databaseName = uniqueDatabaseName();
    const locks = memoryLocks();
    const tab = await openTab({ databaseName, locks });
    await tab.send({ type: 'settings.update', script: script([ASK, { text: 'Thanks.' }]) });
    const { id } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId: id, text: 'Plan a trip' });
    await waitForRunState(tab, id, ['awaiting_input']);
    return { databaseName, locks, tab, conversationId: id };
  }

  it('paints a pending request from its own reads, fetching the full host\'s code for the answer meanwhile', async () => {
    const { databaseName, locks, tab, conversationId } = await pendingQuestionDatabase();
    const worker = await openWorker(databaseName, locks);
    expect(await worker.screen.started).toBe(false);
    // Nothing loads before the first screen is answered: its evaluation would hold the first reads.
    expect(worker.warmed()).toBe(0);
    for (const command of [{ type: 'conversation.list' }, { type: 'requests.listPending' }, { type: 'conversation.open', conversationId }]) {
      expect(await worker.screen.handle(command), command.type).toEqual(await tab.host.handle(command));
    }
    // Then the full host's code and the provider of the conversation whose request is likely answered next load (both
    // the list and the open ask for it), without creating the full host.
    await vi.waitFor(() => expect(worker.warmed()).toBeGreaterThan(0));
    await vi.waitFor(() => expect(worker.prepared).toEqual(['scripted', 'scripted']));
    expect(worker.hostsCreated()).toBe(0);
    const { messages } = (await worker.screen.handle({ type: 'conversation.open', conversationId })) as { messages: { id: string; blocks: { type: string; toolCallId?: string }[] }[] };
    const asked = messages.at(-1)!;
    const toolCallId = asked.blocks.find((block) => block.type === 'request')!.toolCallId!;
    // The answer is the full host's, validated by zod first.
    await expect(worker.screen.handle({ type: 'request.resolve', conversationId, messageId: asked.id, requestId: toolCallId, approved: 'yes' })).rejects.toMatchObject({ code: 'invalid_command', field: 'approved' });
    await worker.screen.handle(answerCommand({ conversationId, messageId: asked.id, toolCallId }, [{ selected: ['Beach'] }]));
    expect(worker.hostsCreated()).toBe(1);
    worker.close();
    tab.close();
  });

  it('leaves a request whose run died mid-call to the full host, which repairs it before it is shown', async () => {
    const { databaseName, locks, tab, conversationId } = await pendingQuestionDatabase();
    tab.close();
    const database = await openParleyDatabase(databaseName);
    const [asked] = (await database.getAllFromIndex('messages', 'by-conversation')).filter((message) => message.role === 'assistant');
    const cutOff = { type: 'tool_call' as const, toolCallId: 'call-cut', toolName: 'echo', args: {}, status: 'running' as const };
    await database.put('messages', { ...asked!, blocks: [...asked!.blocks, cutOff] });
    database.close();
    const worker = await openWorker(databaseName, locks);
    const opened = (await worker.screen.handle({ type: 'conversation.open', conversationId })) as { messages: { blocks: { type: string; toolCallId?: string; status?: string }[] }[] };
    expect(opened.messages.at(-1)!.blocks.find((block) => block.toolCallId === 'call-cut')?.status).toBe('interrupted');
    expect(worker.hostsCreated()).toBe(1);
    worker.close();
  });

  it('loads the default profile\'s provider beside the full host, not with the home screen', async () => {
    const databaseName = uniqueDatabaseName();
    const locks = memoryLocks();
    const tab = await openTab({ databaseName, locks });
    const local = await tab.send({ type: 'profiles.save', profile: { name: 'Local', kind: 'openai-compatible', baseUrl: 'http://localhost:11434/v1', model: 'm' } });
    await tab.send({ type: 'settings.update', defaultProfileId: local.id });
    tab.close();
    const worker = await openWorker(databaseName, locks);
    for (const command of [{ type: 'settings.get' }, { type: 'profiles.list' }, { type: 'conversation.list' }]) await worker.screen.handle(command);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(worker.prepared).toEqual([]);
    // "New conversation": the full host answers it, and the first message will go to the default profile.
    await worker.screen.handle({ type: 'conversation.create' });
    expect(worker.hostsCreated()).toBe(1);
    await vi.waitFor(() => expect(worker.prepared).toEqual([local.id]));
    worker.close();
  });

  it('creates the full host at start to repair a run its dead tab left running', async () => {
    const { databaseName, locks, tab, conversationId } = await idleDatabase();
    tab.close();
    const database = await openParleyDatabase(databaseName);
    const stored = (await database.get('conversations', conversationId))!;
    await database.put('conversations', { ...stored, runState: 'running' });
    database.close();
    const worker = await openWorker(databaseName, locks);
    expect(await worker.screen.started).toBe(true);
    const listed = (await worker.screen.handle({ type: 'conversation.list' })) as { id: string; runState: string }[];
    expect(listed.find((conversation) => conversation.id === conversationId)?.runState).toBe('interrupted');
    expect(worker.hostsCreated()).toBe(1);
    worker.close();
  });
});

describe('what loads after the first screen', () => {
  /** The gate, with what it scheduled kept to run when the test says. */
  function gate() {
    const scheduled: Array<() => void> = [];
    const ran: string[] = [];
    const later = createAfterFirstScreen((run) => scheduled.push(run));
    return { later, ran, scheduled, load: (name: string) => later.load(() => ran.push(name)), flush: () => scheduled.splice(0).forEach((run) => run()) };
  }

  it('waits for the list, then for every read still under way, and runs what waited in order, once', () => {
    const { later, ran, scheduled, load, flush } = gate();
    load('host');
    later.begin(); // settings.get
    later.begin(); // conversation.open
    later.begin(); // conversation.list
    later.end('settings.get');
    expect(scheduled).toHaveLength(0);
    load('provider');
    later.end('conversation.list');
    // The list is answered, the conversation's read is not: its answer must not wait behind the code's evaluation.
    expect(scheduled).toHaveLength(0);
    later.end('conversation.open');
    expect(scheduled).toHaveLength(1);
    expect(ran).toEqual([]);
    flush();
    expect(ran).toEqual(['host', 'provider']);
    // Answered: a later read changes nothing, and a load runs at once.
    later.begin();
    later.end('conversation.list');
    expect(scheduled).toHaveLength(0);
    load('later');
    expect(ran).toEqual(['host', 'provider', 'later']);
  });

  it('never runs before the list has been answered, however many other reads end', () => {
    const { later, scheduled, load } = gate();
    load('host');
    for (const type of ['settings.get', 'profiles.list', 'conversation.open', 'requests.listPending'] as const) {
      later.begin();
      later.end(type);
    }
    expect(scheduled).toHaveLength(0);
  });
});
