import { describe, expect, it } from 'vitest';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState, type TestTab } from './host-harness';
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
