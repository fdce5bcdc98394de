import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as z from '../../src/schema/zod-mini';
import { argumentsDigest, bindingFor, canonicalJson, sha256Hex } from '../../src/core/requests/approval-binding';
import { resolveRequest, withRequest } from '../../src/core/requests/requests';
import { approvalOf } from '../../src/core/requests/request-ids';
import { processToolCalls, type CallPorts } from '../../src/core/tools/tool-calls';
import { zodTool } from '../../src/core/tools/tools';
import type { Tool } from '../../src/core/tools/tool';
import type { ToolPermission } from '../../src/schema/mcp';
import type { ApprovalRequest, Block, ToolCallBlock } from '../../src/schema/messages/blocks';
import type { Message } from '../../src/schema/records';

describe('sha256Hex', () => {
  it('agrees with node on the standard vectors and on random bytes', () => {
    expect(sha256Hex(new Uint8Array())).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(sha256Hex(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
      }),
      { numRuns: 300 },
    );
  });
});

describe('argumentsDigest', () => {
  it('does not depend on key order, and tells different arguments apart', () => {
    expect(canonicalJson({ b: 1, a: [{ d: null, c: 'x' }] })).toBe('{"a":[{"c":"x","d":null}],"b":1}');
    expect(argumentsDigest({ a: 1, b: 2 })).toBe(argumentsDigest({ b: 2, a: 1 }));
    expect(argumentsDigest({ path: 'a.txt' })).not.toBe(argumentsDigest({ path: 'b.txt' }));
    expect(argumentsDigest({ n: 1 })).not.toBe(argumentsDigest({ n: '1' }));
  });
});

const ORIGIN = 'http://files.test';

function spy(permission: ToolPermission, origin = ORIGIN) {
  const runs: unknown[] = [];
  const tool: Tool = {
    ...zodTool({
      name: 'mcp__files__write_file',
      description: 'Writes a file.',
      input: z.strictObject({ path: z.string() }),
      async execute(args) {
        runs.push(args);
        return { text: 'wrote' };
      },
    }),
    permission,
    source: { kind: 'mcp', serverId: 's1', serverName: 'files', toolName: 'write_file', origin },
  };
  return { tool, runs };
}

const asked: ToolCallBlock = {
  type: 'tool_call',
  toolCallId: 'call-1',
  toolName: 'mcp__files__write_file',
  args: { path: 'a.txt' },
  status: 'pending',
  source: { kind: 'mcp', serverId: 's1', serverName: 'files', toolName: 'write_file', origin: ORIGIN },
};
const permission: ApprovalRequest = { type: 'request', kind: 'permission', requestId: 'call-1', toolCallId: 'call-1', status: 'pending', payload: { toolName: asked.toolName } };

/** The assistant message holding `blocks`. */
const messageOf = (blocks: Block[]): Message => ({ id: 'm1', conversationId: 'c1', seq: 1, role: 'assistant', blocks, status: 'complete', createdAt: 0, updatedAt: 0 });
const askedMessage = messageOf([asked, permission]);

const checks = { now: 5, checkArgs: (_block: ToolCallBlock, params: unknown) => ({ ok: true as const, value: params }), checkContent: () => ({ ok: true as const, value: {} }) };

/** The message after Allow (with edited arguments when given). */
function approve(params?: unknown): Message {
  const result = resolveRequest(askedMessage, permission, { approved: true, ...(params ? { params } : {}) }, checks);
  if (!result.ok) throw new Error('not approved');
  return withRequest(askedMessage, result.change, 5);
}

const callIn = (message: Message): ToolCallBlock => message.blocks.find((block): block is ToolCallBlock => block.type === 'tool_call')!;

async function process(original: Message, tool: Tool) {
  const message: Message = structuredClone(original);
  const ports: CallPorts = { tools: [tool], now: () => 1, newId: () => 'id', save: async () => true };
  const end = await processToolCalls(message, ports, new AbortController().signal);
  const block = callIn(message);
  return { end, block, approval: approvalOf(message.blocks, block) };
}

/** The message with its call changed by `edit`. */
const editCall = (message: Message, edit: (call: ToolCallBlock) => ToolCallBlock): Message => ({ ...message, blocks: message.blocks.map((block) => (block.type === 'tool_call' ? edit(block) : block)) });

describe('an approval is bound to the call the user saw', () => {
  it('Allow binds the tool, the server and the exact (edited) arguments', () => {
    expect(callIn(approve()).binding).toEqual({ toolName: 'mcp__files__write_file', origin: ORIGIN, argsHash: argumentsDigest({ path: 'a.txt' }) });
    expect(callIn(approve({ path: 'b.txt' })).binding).toEqual(bindingFor({ ...asked, args: { path: 'b.txt' } }));
  });

  it('runs the approved call as it was approved', async () => {
    const { tool, runs } = spy('ask');
    expect((await process(approve(), tool)).end).toEqual({ kind: 'done', invalid: 0 });
    expect(runs).toEqual([{ path: 'a.txt' }]);
  });

  const edits: Record<string, (block: ToolCallBlock) => ToolCallBlock> = {
    'arguments changed after Allow': (block) => ({ ...block, args: { path: '/etc/passwd' } }),
    'another tool name': (block) => ({ ...block, toolName: 'mcp__files__delete_file' }),
    'no binding (an approval from an older version, or forged)': (block) => {
      const { binding: _binding, ...call } = block;
      return call;
    },
    'a binding for other arguments': (block) => ({ ...block, args: { path: 'x' }, binding: bindingFor({ ...block, args: { path: 'y' } }) }),
  };
  for (const [name, edit] of Object.entries(edits)) {
    for (const setting of ['ask', 'allow'] as const) {
      it(`asks again, running nothing, when the record was edited in place: ${name} (${setting})`, async () => {
        const edited = editCall(approve(), edit);
        const { tool, runs } = spy(setting);
        const named = callIn(edited).toolName === tool.name ? tool : { ...tool, name: callIn(edited).toolName };
        const { end, block, approval } = await process(edited, named);
        expect(runs).toEqual([]);
        expect(end).toEqual({ kind: 'paused' });
        expect(approval).toMatchObject({ kind: 'permission', status: 'pending', requestedAt: 1 });
        expect(approval).not.toHaveProperty('resolution');
        expect(block.status).toBe('pending');
        expect(block).not.toHaveProperty('binding');
      });
    }
  }

  it('asks again when the server with that name now lives at another origin', async () => {
    const { tool, runs } = spy('ask', 'http://elsewhere.test');
    const { end } = await process(approve(), tool);
    expect(end).toEqual({ kind: 'paused' });
    expect(runs).toEqual([]);
  });
});

describe('a decision names the request it decides (kind and when it was asked)', () => {
  const rerunRequest: ApprovalRequest = { ...permission, kind: 'rerun', requestedAt: 20 };
  const rerun = messageOf([{ ...asked, status: 'interrupted' }, rerunRequest]);

  it('an Allow given for the permission does not decide the rerun of the same call', () => {
    const result = resolveRequest(rerun, rerunRequest, { approved: true, expect: { kind: 'permission' } }, checks);
    expect(result).toMatchObject({ ok: false, reason: 'request_changed' });
  });

  it('an Allow given for an earlier rerun does not decide a later one', () => {
    expect(resolveRequest(rerun, rerunRequest, { approved: true, expect: { kind: 'rerun', requestedAt: 10 } }, checks)).toMatchObject({ ok: false, reason: 'request_changed' });
    expect(resolveRequest(rerun, rerunRequest, { approved: true, expect: { kind: 'rerun', requestedAt: 20 } }, checks)).toMatchObject({ ok: true });
  });

  it('an Allow that names the request decides it; one with no binding (this device) decides as before', () => {
    expect(resolveRequest(askedMessage, permission, { approved: true, expect: { kind: 'permission' } }, checks)).toMatchObject({ ok: true });
    expect(resolveRequest(rerun, rerunRequest, { approved: true }, checks)).toMatchObject({ ok: true });
  });

  it('a call asks for its permission and, once interrupted, for its rerun, each stamped with when it asked', async () => {
    const { tool } = spy('ask');
    const fresh: ToolCallBlock = { type: 'tool_call', toolCallId: 'call-2', toolName: tool.name, args: { path: 'a.txt' }, status: 'pending' };
    const { approval } = await process(messageOf([fresh]), tool);
    expect(approval).toEqual({ type: 'request', kind: 'permission', requestId: 'call-2', toolCallId: 'call-2', status: 'pending', payload: { toolName: tool.name }, requestedAt: 1 });
  });
});
