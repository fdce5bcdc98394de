import { describe, expect, it } from 'vitest';
import type { Block } from '../../src/schema/messages/blocks';
import type { Message } from '../../src/schema/records';
import { waitingKindInMessages } from '../../src/ui/state/waiting-kind';

function message(blocks: Block[], pending = true): Message {
  return { id: 'm1', conversationId: 'c1', seq: 1, role: 'assistant', blocks, status: 'complete', createdAt: 0, updatedAt: 0, ...(pending ? { pendingRequestId: 'r1' } : {}) };
}

/** A tool call and the approval asked beside it. */
const call = (kind: 'permission' | 'rerun', status: 'pending' | 'success'): Block[] => [
  { type: 'tool_call', toolCallId: 'r1', toolName: 'echo', args: {}, status: 'pending' },
  { type: 'request', kind, requestId: 'r1', toolCallId: 'r1', status, payload: { toolName: 'echo' } },
];

describe('what a conversation waits for', () => {
  it('names a tool approval and a "Run again?" request an approval, not a question', () => {
    expect(waitingKindInMessages([message(call('permission', 'pending'))])).toBe('approval');
    expect(waitingKindInMessages([message(call('rerun', 'pending'))])).toBe('approval');
  });

  it('names a server\'s form a form and the model\'s question a question', () => {
    const form: Block = { type: 'request', kind: 'elicitation', requestId: 'r1', toolCallId: 't1', payload: { serverName: 's', message: 'Who?', requestedSchema: {} }, status: 'pending' };
    const question: Block = { type: 'request', kind: 'question', requestId: 'r1', toolCallId: 'r1', payload: { questions: [] }, status: 'pending' };
    expect(waitingKindInMessages([message([...call('permission', 'success'), form])])).toBe('form');
    expect(waitingKindInMessages([message([question])])).toBe('question');
  });

  it('knows nothing when no message holds a pending request', () => {
    expect(waitingKindInMessages([message(call('permission', 'pending'), false)])).toBeUndefined();
    expect(waitingKindInMessages(undefined)).toBeUndefined();
  });
});
