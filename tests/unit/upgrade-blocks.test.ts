import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Message } from '../../src/schema/records';
import { upgradeBlocks } from '../../src/schema/messages/upgrade-blocks';

// The messages of the database written by the build before one request shape (tests/fixtures/requests/), as stored.
const stored = JSON.parse(readFileSync(new URL('../fixtures/requests/database-v4.json', import.meta.url), 'utf8')) as { messages: unknown[] };

describe('upgradeBlocks: the three request shapes of the build before become one', () => {
  it('turns every stored message into one today\'s schema accepts, with one request block for each request it held', () => {
    for (const message of stored.messages) {
      const parsed = Message.safeParse(upgradeBlocks(message));
      expect(parsed.success).toBe(true);
      const requestsBefore = (JSON.stringify(message).match(/"question_request"|"elicitation_request"|"approval"/g) ?? []).length;
      expect(parsed.data?.blocks.filter((block) => block.type === 'request')).toHaveLength(requestsBefore);
    }
  });

  it('keeps ids, states, answers and the binding, and puts an approval beside its call', () => {
    const legacy = {
      id: 'm1',
      blocks: [
        { type: 'tool_call', toolCallId: 'c1', toolName: 'write', args: { path: 'b' }, status: 'pending', approval: { kind: 'permission', status: 'success', requestedAt: 3, resolution: 'edited', originalArgs: { path: 'a' }, resolvedAt: 4, binding: { toolName: 'write', origin: '', argsHash: 'f'.repeat(64) } } },
        { type: 'elicitation_request', requestId: 'e1', toolCallId: 'c1', serverName: 's', message: 'Who?', requestedSchema: {}, status: 'success', resolution: 'accepted', content: { name: 'Ada' } },
        { type: 'question_request', toolCallId: 'q1', questions: [], status: 'denied', resolution: 'dismissed', toolResult: 'Dismissed.', resolvedAt: 5 },
        { type: 'tool_call', toolCallId: 'c2', toolName: 'write', args: {}, status: 'interrupted', approval: { kind: 'rerun', status: 'denied', resolution: 'denied', reason: 'no', binding: { toolName: 'x', origin: '', argsHash: '0'.repeat(64) } } },
      ],
    };
    expect(upgradeBlocks(legacy).blocks).toEqual([
      { type: 'tool_call', toolCallId: 'c1', toolName: 'write', args: { path: 'b' }, status: 'pending', originalArgs: { path: 'a' }, binding: { toolName: 'write', origin: '', argsHash: 'f'.repeat(64) } },
      { type: 'request', kind: 'permission', requestId: 'c1', toolCallId: 'c1', status: 'success', payload: { toolName: 'write' }, resolution: 'edited', requestedAt: 3, resolvedAt: 4 },
      { type: 'request', kind: 'elicitation', requestId: 'e1', toolCallId: 'c1', status: 'success', payload: { serverName: 's', message: 'Who?', requestedSchema: {} }, resolution: 'accepted', response: { content: { name: 'Ada' } } },
      { type: 'request', kind: 'question', requestId: 'q1', toolCallId: 'q1', status: 'denied', payload: { questions: [] }, resolution: 'dismissed', response: { toolResult: 'Dismissed.' }, resolvedAt: 5 },
      // A binding on an approval that was not given is dropped: it never ran anything and never will.
      { type: 'tool_call', toolCallId: 'c2', toolName: 'write', args: {}, status: 'interrupted' },
      { type: 'request', kind: 'rerun', requestId: 'c2', toolCallId: 'c2', status: 'denied', payload: { toolName: 'write' }, resolution: 'denied', response: { reason: 'no' } },
    ]);
  });

  it('leaves a message already in today\'s shape, and anything that is not a message, as it is', () => {
    const today = upgradeBlocks(stored.messages.find((message) => JSON.stringify(message).includes('question_request')));
    expect(upgradeBlocks(today)).toBe(today);
    expect(upgradeBlocks(null)).toBe(null);
    expect(upgradeBlocks('text')).toBe('text');
    const odd = { blocks: 'not a list' };
    expect(upgradeBlocks(odd)).toBe(odd);
  });
});
