import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createProgressThrottle } from '../../src/worker/runs/progress-throttle';
import { memoryLocks, openTab, script, uniqueDatabaseName, waitForRunState } from './host-harness';
import type { Message } from '../../src/schema/records';

const timers = { setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms), clearTimeout: (handle: unknown) => clearTimeout(handle as NodeJS.Timeout) };

function streaming(id: string, text: string): Message {
  return { id, conversationId: 'c', seq: 1, role: 'assistant', blocks: [{ type: 'text', text }], status: 'streaming', createdAt: 0, updatedAt: 0 };
}

describe('createProgressThrottle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the first change at once, then the latest one per interval', () => {
    const sent: string[] = [];
    const throttle = createProgressThrottle((message) => sent.push(message.blocks[0]!.type === 'text' ? message.blocks[0]!.text : ''), { intervalMs: 50, timers });
    for (let index = 1; index <= 100; index += 1) {
      throttle.push(streaming('m', 'x'.repeat(index)));
      vi.advanceTimersByTime(5);
    }
    vi.advanceTimersByTime(100);
    expect(sent[0]).toBe('x');
    expect(sent.at(-1)).toBe('x'.repeat(100));
    expect(sent.length).toBeLessThanOrEqual(12); // 500 ms of changes: one now, then one per 50 ms
  });

  it('drops what is pending once a persisted write of the message went out', () => {
    const sent: Message[] = [];
    const throttle = createProgressThrottle((message) => sent.push(message), { intervalMs: 50, timers });
    throttle.push(streaming('m', 'a'));
    throttle.push(streaming('m', 'ab'));
    throttle.settle('m');
    vi.advanceTimersByTime(200);
    expect(sent.map((message) => message.blocks)).toEqual([[{ type: 'text', text: 'a' }]]);
  });
});

describe('streaming through the host', () => {
  it('posts far fewer updates than the reply has chunks, and ends on the complete message', async () => {
    const tab = await openTab({ databaseName: uniqueDatabaseName(), locks: memoryLocks(), persistIntervalMs: 250 });
    await tab.send({ type: 'settings.update', script: script([{ text: 'y'.repeat(600) }], { chunkDelayMs: 0, chunkSize: 1 }) });
    const { id: conversationId } = await tab.send({ type: 'conversation.create' });
    await tab.send({ type: 'message.send', conversationId, text: 'go' });
    await waitForRunState(tab, conversationId, ['idle']);
    const updates = tab.events.filter((event) => event.type === 'message-upserted' && event.message.role === 'assistant');
    expect(updates.length).toBeLessThan(100);
    expect(updates.at(-1)).toMatchObject({ message: { status: 'complete' } });
  });
});
