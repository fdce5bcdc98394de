import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/schema/commands';
import { SyncPayload } from '../../src/schema/sync/sync';
import { zodTool } from '../../src/core/tools/tools';
import * as z from '../../src/schema/zod-mini';

// zod/mini has no messages of its own ("Invalid input" for every problem): these are the sentences the app shows, and
// the model reads, for bad input. This file imports only the app's own modules, so nothing else sets the words.
describe('validation messages', () => {
  it('name the field and the rule of a malformed command, whether its input loads with the worker or with Settings', async () => {
    expect(await parseCommand({ type: 'conversation.rename', conversationId: 'c1', title: '   ' })).toEqual({
      success: false,
      field: 'title',
      message: 'Too small: expected string to have >=1 characters',
    });
    expect(await parseCommand({ type: 'storage.conversationSizes', limit: 'ten' })).toEqual({
      success: false,
      field: 'limit',
      message: 'Invalid input: expected number, received string',
    });
  });

  it('say what a bad tool call lacks, for the model to rewrite it', () => {
    const tool = zodTool({ name: 'write', description: 'Writes.', input: z.strictObject({ path: z.string().check(z.minLength(1)) }), execute: async () => ({ text: '' }) });
    expect(tool.check({ path: 3, mode: 'x' })).toEqual({
      ok: false,
      error: 'Invalid input for write: path: Invalid input: expected string, received number; input: Unrecognized key: "mode". Please rewrite the input so it satisfies the expected schema.',
    });
  });

  it('say why a synced document is refused', () => {
    const parsed = SyncPayload.safeParse({ kind: 'runner', runner: { conversationId: '', device: { id: 'd', name: 'D' }, epoch: 1.5, since: 0 } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)).toEqual([
      'runner.conversationId: Too small: expected string to have >=1 characters',
      'runner.epoch: Invalid input: expected int, received number',
    ]);
  });
});
