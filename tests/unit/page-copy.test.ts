import { describe, expect, it } from 'vitest';
import { PAGE_TEXT_LIMIT } from '../../src/schema/limits';
import type { Message } from '../../src/schema/records';
import { clipForPage } from '../../src/worker/store/page-copy';

const message = (blocks: Message['blocks']): Message => ({ id: 'm1', conversationId: 'c1', seq: 0, role: 'assistant', blocks, status: 'complete', createdAt: 0, updatedAt: 0 });

describe('what the worker sends to the page', () => {
  it('clips a long text or reasoning block, and says how long it is; a tool call and short texts are untouched', () => {
    const long = 'a'.repeat(PAGE_TEXT_LIMIT + 5);
    const tool = { type: 'tool_call' as const, toolCallId: 't', toolName: 'x', args: { text: long }, status: 'success' as const, result: long };
    const clipped = clipForPage({ type: 'message-upserted', message: message([{ type: 'text', text: long }, { type: 'reasoning', text: long }, { type: 'text', text: 'short' }, tool]) });
    expect(clipped.message.blocks[0]).toEqual({ type: 'text', text: long.slice(0, PAGE_TEXT_LIMIT), clippedFrom: PAGE_TEXT_LIMIT + 5 });
    expect(clipped.message.blocks[1]).toMatchObject({ type: 'reasoning', clippedFrom: PAGE_TEXT_LIMIT + 5 });
    expect(clipped.message.blocks[2]).toEqual({ type: 'text', text: 'short' });
    expect(clipped.message.blocks[3]).toBe(tool);
  });

  it('clips every message of a page, and returns what needs no clipping as it is (the usual reply costs nothing)', () => {
    const short = { conversation: { id: 'c1' }, messages: [message([{ type: 'text', text: 'hi' }])] };
    expect(clipForPage(short)).toBe(short);
    const page = clipForPage({ messages: [message([{ type: 'text', text: 'hi' }]), message([{ type: 'text', text: 'b'.repeat(PAGE_TEXT_LIMIT * 2) }])] });
    expect(page.messages[0]!.blocks[0]).toEqual({ type: 'text', text: 'hi' });
    expect((page.messages[1]!.blocks[0] as { text: string }).text).toHaveLength(PAGE_TEXT_LIMIT);
    for (const value of [undefined, null, 3, 'text', { results: [] }]) expect(clipForPage(value)).toBe(value);
  });

  it('never splits a surrogate pair', () => {
    const text = `${'a'.repeat(PAGE_TEXT_LIMIT - 1)}😀${'b'.repeat(10)}`;
    const clipped = clipForPage({ message: message([{ type: 'text', text }]) });
    const kept = (clipped.message.blocks[0] as { text: string }).text;
    expect(kept).toHaveLength(PAGE_TEXT_LIMIT - 1);
    expect(kept.endsWith('a')).toBe(true);
  });
});

describe('an import file', () => {
  it('cannot say a text was clipped: clippedFrom is only ever set on the way to the page', async () => {
    const { disarmImported } = await import('../../src/core/transfer/import-checks');
    const forged = message([{ type: 'text', text: 'short', clippedFrom: 99 }, { type: 'reasoning', text: 'why', clippedFrom: 7 }]);
    expect(disarmImported(forged, 1).message.blocks).toEqual([{ type: 'text', text: 'short' }, { type: 'reasoning', text: 'why' }]);
  });
});
