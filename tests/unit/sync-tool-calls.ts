import * as z from '../../src/schema/zod-mini';
import { script, waitForRunState, type TabOptions } from './host-harness';
import { simulatedDevices } from './sync-simulation';
import { zodTool } from '../../src/core/tools/tools';
import type { Tool } from '../../src/core/tools/tool';
import type { ToolCallBlock } from '../../src/schema/messages/blocks';
import { approvalOf } from '../../src/schema/messages/approvals';
import type { Message } from '../../src/schema/records';

/** The laptop's model calls `write_file`, an MCP tool that asks first; then replies with what it saw. */
export const CALL = { text: 'Writing it.', toolCalls: [{ name: 'mcp__files__write_file', args: { path: 'a.txt' } }] };
export const ECHO = { text: 'Saw: {{lastToolResult}}' };

/** A tool that counts its calls; while `state.hold` is set a call waits for ever (a long call the browser is closed in). */
export function countingTool({ hold = false } = {}) {
  const runs: string[] = [];
  const state = { hold };
  const tool: Tool = {
    ...zodTool({
      name: 'mcp__files__write_file',
      description: 'Writes a file.',
      input: z.strictObject({ path: z.string().check(z.minLength(1)) }),
      async execute(args) {
        runs.push((args as { path: string }).path);
        if (state.hold) await new Promise(() => undefined);
        return { text: `wrote ${(args as { path: string }).path}` };
      },
    }),
    permission: 'ask',
    source: { kind: 'mcp', serverId: 's1', serverName: 'files', toolName: 'write_file', origin: 'http://files.test' },
  };
  return { tool, runs, state };
}

export const callIn = (message: Message | undefined) => message?.blocks.find((block): block is ToolCallBlock => block.type === 'tool_call');

/** The approval asked about the message's tool call, beside it. */
export const approvalIn = (message: Message | undefined) => {
  const call = callIn(message);
  return call && message ? approvalOf(message.blocks, call) : undefined;
};

/** Two synced devices; the laptop's agent has asked to run `write_file`, and the phone lists that approval as pending. */
export async function toolCallWaitingOnPhone(seed: number, tabs: { laptop?: Partial<TabOptions>; phone?: Partial<TabOptions> }) {
  const world = await simulatedDevices(seed, { tabs, prepare: async (laptop) => void (await laptop.send({ type: 'settings.update', script: script([CALL, ECHO, ECHO]) })) });
  const { laptop, phone, replicator } = world;
  const { id: conversationId } = await laptop.send({ type: 'conversation.create' });
  await laptop.send({ type: 'message.send', conversationId, text: 'write a.txt' });
  await waitForRunState(laptop, conversationId, ['awaiting_input']);
  await replicator.settle(async () => (await phone.send({ type: 'requests.listPending' })).length === 1);
  const [pending] = await phone.send({ type: 'requests.listPending' });
  return { ...world, target: { conversationId, messageId: pending!.messageId, requestId: pending!.request.requestId } };
}
