import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState, type TestTab } from './host-harness';
import { openParleyDatabase } from '../../src/worker/store/database';
import { readPeerMessage, type PeerHint } from '../../src/worker/tabs/peer-channel';

describe('messages between tabs are hints, not data', () => {
  it('drops malformed, oversized or data-carrying messages', () => {
    expect(readPeerMessage({ kind: 'event', event: { type: 'message-upserted', message: {} } })).toBeUndefined();
    expect(readPeerMessage({ kind: 'hint', hint: { kind: 'conversation', conversationId: 'c', messageIds: Array.from({ length: 51 }, (_, index) => `m${index}`) } })).toBeUndefined();
    expect(readPeerMessage({ kind: 'hint', hint: { kind: 'conversation', conversationId: 'x'.repeat(101), messageIds: [] } })).toBeUndefined();
    expect(readPeerMessage({ kind: 'stop', conversationId: 42 })).toBeUndefined();
    expect(readPeerMessage(null)).toBeUndefined();
    expect(readPeerMessage({ kind: 'hint', hint: { kind: 'conversation', conversationId: 'c', messageIds: ['m'], message: { fake: true } } })).toEqual({ kind: 'hint', hint: { kind: 'conversation', conversationId: 'c', messageIds: ['m'] } });
  });

  it('shows what is stored, whatever a forged hint names, and a real change from another tab still arrives', async () => {
    const databaseName = uniqueDatabaseName();
    const locks = memoryLocks();
    const peers: TestTab[] = [];
    const writer = await openTab({ databaseName, locks, peers });
    const reader = await openTab({ databaseName, locks });
    peers.push(reader);
    await writer.send({ type: 'settings.update', script: script([{ text: 'Real reply.' }]) });
    const { id } = await writer.send({ type: 'conversation.create' });
    await writer.send({ type: 'message.send', conversationId: id, text: 'hello' });
    await waitForRunState(writer, id, ['idle']);
    await expect.poll(() => reader.events.filter((event) => event.type === 'message-upserted' && event.message.blocks.some((block) => block.type === 'text' && block.text === 'Real reply.')).length).toBeGreaterThan(0);

    // A forged hint naming records that do not exist, or belong elsewhere, makes nothing up.
    reader.events.length = 0;
    await reader.host.peerHint({ kind: 'conversation', conversationId: id, messageIds: ['no-such-message'] });
    // Late hints from the writer's own run may still arrive on a busy machine, so the check is on what each
    // event says, not on how many there are: nothing names the forged record, and everything shown is stored.
    expect(reader.events.some((event) => event.type === 'message-upserted' && event.message.id === 'no-such-message')).toBe(false);
    const stored = await reader.host.store.getConversation(id);
    expect(reader.events.filter((event) => event.type === 'conversation-upserted').map((event) => event.type === 'conversation-upserted' && event.conversation.id)).toContain(id);
    for (const event of reader.events) {
      if (event.type === 'conversation-upserted') expect(event.conversation.id).toBe(stored?.id);
      if (event.type === 'message-upserted') expect(event.message).toEqual(await reader.host.store.getMessage(event.message.id));
    }
  });

  it('a streaming reply is shown in its own tab at every update, but hinted to other tabs only when it is stored', async () => {
    const hints: PeerHint[] = [];
    // Streaming writes are coalesced 10 s apart: the reply is stored when it starts and when it ends.
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), hints, persistIntervalMs: 10_000 });
    await tab.send({ type: 'settings.update', script: script([{ text: 'word '.repeat(60) }], { chunkSize: 1, chunkDelayMs: 4 }) });
    const { id } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId: id, text: 'hello' });
    await waitForRunState(tab, id, ['idle'], 20_000);
    const reply = (await tab.host.store.listMessages(id)).at(-1)!;
    const shown = tab.events.filter((event) => event.type === 'message-upserted' && event.message.id === reply.id).length;
    const hinted = hints.filter((hint) => hint.kind === 'conversation' && hint.messageIds.includes(reply.id)).length;
    expect(hinted).toBeGreaterThan(0);
    expect(hinted).toBeLessThanOrEqual(3);
    expect(shown).toBeGreaterThan(hinted);
  }, 60_000);
});

describe('a hint read beside a write', () => {
  it('never tells an older conversation after a newer write: a dead tab repaired while a hint is read leaves Continue on screen', async () => {
    const databaseName = uniqueDatabaseName();
    const tab = await openTab({ databaseName, locks: memoryLocks() });
    await tab.send({ type: 'settings.update', script: script([{ text: 'Half a reply' }]) });
    const { id } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId: id, text: 'hello' });
    await waitForRunState(tab, id, ['idle']);
    // As a tab that died mid-reply leaves it: the conversation running, its reply streaming, nobody holding the lock.
    const reply = (await tab.host.store.listMessages(id)).at(-1)!;
    const database = await openParleyDatabase(databaseName);
    const conversation = (await database.get('conversations', id))!;
    await database.put('conversations', { ...conversation, runState: 'running' });
    await database.put('messages', { ...reply, status: 'streaming' });
    database.close();
    tab.events.length = 0;

    // The last tab that wrote it hinted its last chunk just as this tab repairs the run.
    await Promise.all([tab.host.peerHint({ kind: 'conversation', conversationId: id, messageIds: [reply.id] }), tab.host.store.repairDeadRun(id)]);

    const told = tab.events.flatMap((event) => (event.type === 'conversation-upserted' && event.conversation.id === id ? [event.conversation.runState] : []));
    expect(told.at(-1)).toBe('interrupted');
    expect((await tab.host.store.getConversation(id))?.runState).toBe('interrupted');
  });
});
