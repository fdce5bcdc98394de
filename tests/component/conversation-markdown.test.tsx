import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/schema/records';
import { conversationMarkdown, markdownFileName } from '../../src/ui/conversation-markdown';

function message(role: Message['role'], blocks: Message['blocks']): Message {
  return { id: `${role}-${blocks.length}`, conversationId: 'c', seq: 0, role, blocks, status: 'complete', createdAt: 0, updatedAt: 0 };
}

describe('Export as Markdown', () => {
  it('keeps a reply as written, puts tool calls in fences no backticks inside can close, and the answers under their questions', () => {
    const text = conversationMarkdown({ title: 'Trip' }, [
      message('user', [{ type: 'text', text: 'Plan it' }]),
      message('assistant', [
        { type: 'text', text: 'Sure: `code` and **bold**.' },
        { type: 'tool_call', toolCallId: 't', toolName: 'mcp__x__echo', args: { message: '```' }, status: 'success', result: 'Echo: ```' },
        { type: 'question_request', toolCallId: 'q', questions: [{ header: 'Where', question: 'Where to?', options: [{ label: 'Beach' }, { label: 'City' }], multiple: false, custom: true }], status: 'success', answers: [{ selected: ['Beach'], other: 'with a pool' }] },
      ]),
    ]);
    expect(text).toBe(
      '# Trip\n\n## You\n\nPlan it\n\n## Parley\n\nSure: `code` and **bold**.\n\n**mcp__x__echo**\n\n````json\n{\n  "message": "```"\n}\n````\n\n````\nEcho: ```\n````\n\n> **Where**: Where to?\n>\n> → Beach, with a pool\n',
    );
  });

  it('names the file after the title, without characters a file system refuses', () => {
    expect(markdownFileName('a/b: c?')).toBe('a b c.md');
    expect(markdownFileName('  ')).toBe('conversation.md');
  });
});

describe('the whole path, for an export', () => {
  it('asks the worker for the whole of a message whose texts were clipped for the page, and only for that one', async () => {
    const { readWholePath } = await import('../../src/ui/conversation-markdown');
    const base = { conversationId: 'c1', role: 'assistant' as const, status: 'complete' as const, createdAt: 0, updatedAt: 0 };
    const short = { ...base, id: 'm1', seq: 0, blocks: [{ type: 'text' as const, text: 'hi' }] };
    const clipped = { ...base, id: 'm2', seq: 1, blocks: [{ type: 'text' as const, text: 'aaa', clippedFrom: 5 }] };
    const whole = { ...clipped, blocks: [{ type: 'text' as const, text: 'aaaaa' }] };
    const sent: Array<{ type: string }> = [];
    const client = {
      send: async (command: { type: string }) => {
        sent.push(command);
        return command.type === 'message.whole' ? { message: whole } : { messages: [short, clipped], earlier: 0 };
      },
    } as unknown as Parameters<typeof readWholePath>[0];
    expect(await readWholePath(client, 'c1')).toEqual([short, whole]);
    expect(sent.map((command) => command.type)).toEqual(['conversation.messages', 'message.whole']);
  });
});
