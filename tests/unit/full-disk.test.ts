import { afterEach, describe, expect, it } from 'vitest';
import { failWrites, memoryLocks, openTab, script, uniqueDatabaseName } from './host-harness';

let freeTheDisk: () => void = () => undefined;
/** From now on every write fails as it does when the quota is used up. */
function fillTheDisk(): void {
  freeTheDisk = failWrites(() => true);
}
afterEach(() => freeTheDisk());

describe('a full disk at the end of a run', () => {
  it('leaves a conversation that opens, lists, says why, and clears with Stop once there is room', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks() });
    await tab.send({ type: 'settings.update', script: script([{ text: 'x'.repeat(200) }], { chunkDelayMs: 5, chunkSize: 5 }) });
    const { id } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId: id, text: 'hello' });
    await expect.poll(async () => (await tab.host.store.listMessages(id)).length).toBe(2);
    fillTheDisk(); // the final state write and every fallback fail
    await expect.poll(() => tab.host.runs.isRunningHere(id), { timeout: 10_000 }).toBe(false);
    expect((await tab.host.store.getConversation(id))?.runState).toBe('running'); // stuck on disk…

    // …but reading never depends on writing: it opens and lists, shown as interrupted, and the user was told.
    const opened = await tab.send({ type: 'conversation.open', conversationId: id });
    expect(opened.conversation.runState).toBe('interrupted');
    expect(opened.messages).toHaveLength(2);
    expect((await tab.send({ type: 'conversation.list' })).find((conversation) => conversation.id === id)?.runState).toBe('interrupted');
    expect(tab.events.some((event) => event.type === 'storage-error' && /no storage space left/.test(event.message))).toBe(true);
    // The UI words it from the reason (node has no storage estimate, so no byte counts here).
    expect(tab.events).toContainEqual(expect.objectContaining({ type: 'storage-error', reason: 'storage_full' }));
    await expect(tab.send({ type: 'run.stop', conversationId: id })).rejects.toMatchObject({ code: 'storage_full' });

    freeTheDisk();
    await tab.send({ type: 'run.stop', conversationId: id });
    const after = await tab.send({ type: 'conversation.open', conversationId: id });
    expect(after.conversation.runState).toBe('idle');
  });
});
