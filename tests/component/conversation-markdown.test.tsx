import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/schema/records';
import { conversationMarkdown, demoteHeadings, markdownFileName } from '../../src/ui/chat/conversation-markdown';
import { blockMarkdown } from '../../src/ui/messages/block-views';
import { setLocale } from '../../src/ui/i18n/i18n';

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
        { type: 'request', kind: 'question', requestId: 'q', toolCallId: 'q', payload: { questions: [{ header: 'Where', question: 'Where to?', options: [{ label: 'Beach' }, { label: 'City' }], multiple: false, custom: true }] }, status: 'success', response: { answers: [{ selected: ['Beach'], other: 'with a pool' }] } },
      ]),
    ], blockMarkdown);
    expect(text).toBe(
      '# Trip\n\n## You\n\nPlan it\n\n## Parley\n\nSure: `code` and **bold**.\n\n**mcp__x__echo**\n\n````json\n{\n  "message": "```"\n}\n````\n\n````\nEcho: ```\n````\n\n> **Where**: Where to?\n>\n> → Beach, with a pool\n',
    );
  });

  it('says which files went with a message, under it, by name and size, names as the app shows them', () => {
    const sent = { ...message('user', [{ type: 'text', text: 'Look' }]), attachments: [
      { id: 'a1', name: 'notes.md', mimeType: 'text/markdown', size: 22, kind: 'text' as const },
      { id: 'a2', name: 'report\u202Etxt.pdf', mimeType: 'text/plain', size: 2048, kind: 'text' as const },
      { id: 'a3', name: 'odd`name`.txt', mimeType: 'text/plain', size: 1, kind: 'text' as const },
    ] };
    const onlyFiles = { ...message('user', []), attachments: [{ id: 'a4', name: 'plan.csv', mimeType: 'text/csv', size: 3, kind: 'text' as const }] };
    expect(conversationMarkdown({ title: 'Files' }, [sent, onlyFiles], blockMarkdown)).toBe(
      '# Files\n\n## You\n\nLook\n\n_Files sent with this message:_ `notes.md` (22 bytes), `report⟨U+202E⟩txt.pdf` (2 KB), ``odd`name`.txt`` (1 byte)\n\n## You\n\n_Files sent with this message:_ `plan.csv` (3 bytes)\n',
    );
  });

  it('labels the reasoning as such, and keeps a reply’s own headings below the "## You" / "## Parley" separators', () => {
    const text = conversationMarkdown({ title: 'Plan' }, [
      message('user', [{ type: 'text', text: '# My question' }]),
      message('assistant', [
        { type: 'reasoning', text: 'Think first.\n## Options' },
        { type: 'text', text: '## Your weekend plan\n\n### Saturday\n\n- Walk\n\n```md\n## not a heading\n```' },
      ]),
    ], blockMarkdown);
    expect(text).toBe(
      '# Plan\n\n## You\n\n### My question\n\n## Parley\n\n> **Reasoning**\n> \n> Think first.\n> #### Options\n\n#### Your weekend plan\n\n##### Saturday\n\n- Walk\n\n```md\n## not a heading\n```\n',
    );
  });

  it('moves headings down outside fenced code only: ATX and setext, at most to level 6', () => {
    expect(demoteHeadings('# One\n##### Five\n###### Six\n#hashtag\n    # indented code', 2)).toBe('### One\n###### Five\n###### Six\n#hashtag\n    # indented code');
    expect(demoteHeadings('Title\n=====\n\nTwo lines\nof a heading\n---\n\n---\n\n- item\n---', 2)).toBe('### Title\n\n#### Two lines of a heading\n\n---\n\n- item\n---');
    expect(demoteHeadings('~~~\n# kept\n```\n# kept too\n~~~~\n# Out', 2)).toBe('~~~\n# kept\n```\n# kept too\n~~~~\n### Out');
  });

  it('heads an untitled conversation with the placeholder the app shows, in the UI’s language, not an empty heading', async () => {
    expect(conversationMarkdown({ title: '' }, [], blockMarkdown)).toBe('# New conversation\n');
    await setLocale('zh-CN');
    try {
      expect(conversationMarkdown({ title: 'New conversation' }, [], blockMarkdown)).toBe('# 新建对话\n');
    } finally {
      await setLocale('en');
    }
  });

  it('names the file after the title, without characters a file system refuses', () => {
    expect(markdownFileName('a/b: c?')).toBe('a b c.md');
    expect(markdownFileName('  ')).toBe('conversation.md');
  });
});

describe('the whole path, for an export', () => {
  it('asks the worker for the whole of a message whose texts were clipped for the page, and only for that one', async () => {
    const { readWholePath } = await import('../../src/ui/chat/conversation-markdown');
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
