import { describe, expect, it, vi } from 'vitest';
import { ChangeFeed, type Change } from '../../src/worker/store/change-feed';
import { pageEvents } from '../../src/worker/tabs/page-events';
import type { AppEvent } from '../../src/schema/events';
import type { Message } from '../../src/schema/records';
import type { PeerHint } from '../../src/worker/tabs/peer-channel';

const message = (id: string, conversationId = 'c1') => ({ id, conversationId, role: 'assistant', seq: 1, status: 'complete', blocks: [], createdAt: 1, updatedAt: 1 }) as unknown as Message;

describe('the change feed', () => {
  it('hands every change to every listener, even when one throws, and stops when unsubscribed', () => {
    const thrown = vi.fn();
    const feed = new ChangeFeed(thrown);
    const heard: string[] = [];
    feed.listen(() => {
      throw new Error('a broken listener');
    });
    const stop = feed.listen((change) => heard.push(change.removed?.[0] ?? ''));
    feed.publish({ removed: ['c1'], source: 'local', scope: 'document' });
    stop();
    feed.publish({ removed: ['c2'], source: 'local', scope: 'document' });
    expect(heard).toEqual(['c1']);
    expect(thrown).toHaveBeenCalledTimes(2);
  });

  it('the page hears every change; other tabs get one hint per conversation, only for what this worker stored', () => {
    const events: AppEvent[] = [];
    const hints: PeerHint[] = [];
    const listener = pageEvents((event) => events.push(event), (hint) => hints.push(hint));
    const many = Array.from({ length: 120 }, (_, index) => message(`m${index}`));
    const stored: Change = { messages: [...many, message('x', 'c2')], source: 'local', scope: 'document' };
    listener(stored);
    expect(events).toHaveLength(121);
    expect(hints.map((hint) => (hint.kind === 'conversation' ? [hint.conversationId, hint.messageIds.length] : hint.kind))).toEqual([
      ['c1', 50],
      ['c1', 50],
      ['c1', 20],
      ['c2', 1],
    ]);
    hints.length = 0;
    listener({ messages: [message('m1')], source: 'local', scope: 'tab' });
    listener({ messages: [message('m1')], source: 'remote', scope: 'document' });
    listener({ removed: ['c3'], source: 'remote', scope: 'document' });
    expect(hints).toEqual([]);
    listener({ imported: [], source: 'local', scope: 'document' });
    expect(hints).toEqual([{ kind: 'list' }]);
    expect(events.at(-1)).toEqual({ type: 'conversations-imported', conversations: [] });
  });
});
