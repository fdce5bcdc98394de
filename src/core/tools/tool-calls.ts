import type { ApprovalRequest, Block, ElicitationRequest, ToolCallBlock } from '../../schema/messages/blocks';
import type { ToolProgress } from '../../schema/events';
import type { Message, RunState } from '../../schema/records';
import { approvalHolds } from '../requests/approval-binding';
import { approvalOf, askApproval, awaitsApproval, syncPendingIndex, withApproval } from '../requests/request-ids';
import type { ElicitationResponse, Tool, ToolContext } from './tool';
import { AFTER_QUESTION_TEXT, neverToolText, ranText, STOPPED_BEFORE_TOOL_TEXT, STOPPED_WHILE_RUNNING_TEXT, unknownToolText } from './tool-outcomes';

export { AFTER_QUESTION_TEXT, STOPPED_BEFORE_TOOL_TEXT };

export interface ReceivedToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** What processing a message's tool calls needs from the outside. */
export interface CallPorts {
  tools: readonly Tool[];
  now(): number;
  newId(): string;
  /** Stores the message and the conversation's run state in one transaction; false when the conversation is gone. */
  save(message: Message, runState: RunState): Promise<boolean>;
  /**
   * Resolves with the request's block once it is resolved in storage (by this tab or another); rejects when `signal`
   * aborts. Without it, nobody can be asked while a tool runs, and elicitations are declined.
   */
  waitForRequest?(messageId: string, requestId: string, signal: AbortSignal): Promise<Block>;
  /** Where a running tool's progress goes (to the UI, throttled, not to storage). Without it, progress is dropped. */
  reportProgress?(message: Message, toolCallId: string, progress: ToolProgress): void;
}

/** How processing ended: all calls done (the model reads the results next), paused for the user, stopped, or deleted. */
export type CallsEnd = { kind: 'done'; invalid: number } | { kind: 'paused' } | { kind: 'stopped' } | { kind: 'deleted' };

/** A model's tool call as stored before anything is done with it: queued. */
export function queuedCall(call: ReceivedToolCall): ToolCallBlock {
  return { type: 'tool_call', toolCallId: call.toolCallId, toolName: call.toolName, args: call.input, status: 'pending' };
}

/** Whether the message has tool calls still to process (queued, or approved and waiting to run). */
export function hasQueuedCalls(message: Message): boolean {
  return message.blocks.some((block) => block.type === 'tool_call' && block.status === 'pending' && !awaitsApproval(message.blocks, block));
}

/**
 * What processing does with a queued call now: answer it without running it (a "Never" tool, an unknown one, invalid
 * arguments), ask the user (a question; an approval), or run it. Pure, so the transaction that approves a call can tell
 * whether its call runs next (see beginCall).
 */
type CallDecision =
  | { kind: 'answered'; block: ToolCallBlock; invalid: boolean }
  | { kind: 'question'; block: Block }
  | { kind: 'approval'; block: ToolCallBlock; approval: ApprovalRequest }
  | { kind: 'run'; running: ToolCallBlock; tool: Tool; args: unknown; approval: ApprovalRequest | undefined };

function decideCall(blocks: readonly Block[], block: ToolCallBlock, tools: readonly Tool[], now: number): CallDecision {
  const tool = tools.find((candidate) => candidate.name === block.toolName && candidate.permission !== 'never');
  if (!tool) {
    // A "Never" tool is listed but not offered: its call is refused as the user's choice (`denied`, with where the
    // tool came from, so the card can link to its permission), not reported as a mistake of the model.
    const refused = tools.find((candidate) => candidate.name === block.toolName);
    if (refused) return { kind: 'answered', block: { ...block, ...(refused.source ? { source: { ...refused.source } } : {}), status: 'denied', result: neverToolText(block.toolName) }, invalid: false };
    const available = tools.filter((candidate) => candidate.permission !== 'never').map((candidate) => candidate.name);
    return { kind: 'answered', block: { ...block, status: 'error', result: unknownToolText(block.toolName, available) }, invalid: false };
  }
  const checked = tool.check(block.args);
  if (!checked.ok) return { kind: 'answered', block: { ...block, status: 'error', result: checked.error }, invalid: tool.countsInvalid === true };
  if (tool.ask) return { kind: 'question', block: tool.ask(checked.value, block.toolCallId) };
  // An approval runs a call only when it was given here for exactly this call (see approval-binding.ts); one that
  // does not hold (forged, or the record changed since) asks afresh, whatever the tool's permission.
  const approval = approvalOf(blocks, block);
  if (approval?.status === 'success' ? !approvalHolds(block, tool) : tool.permission === 'ask') {
    const asking = tool.source ? { source: { ...tool.source, inputSchema: tool.inputSchema } } : {};
    const { result: _result, binding: _binding, ...unrun } = block;
    return { kind: 'approval', block: { ...unrun, ...asking }, approval: askApproval(block, 'permission', now) };
  }
  const running: ToolCallBlock = { ...block, ...(tool.source ? { source: { ...tool.source } } : {}), status: 'running' };
  return { kind: 'run', running, tool, args: checked.value, approval };
}

/** The message's next queued call, the one processToolCalls takes first; undefined when one waits for an approval first. */
function nextQueuedCall(message: Message): ToolCallBlock | undefined {
  const next = message.blocks.find((block): block is ToolCallBlock => block.type === 'tool_call' && block.status === 'pending');
  return next && !awaitsApproval(message.blocks, next) ? next : undefined;
}

/**
 * The message with call `toolCallId` marked `running`, when processToolCalls would run it next and at once with `tools`
 * (an approved call, nothing before it): an Allow stores this in its own compare-and-set, and the run that starts from
 * it calls the tool without marking it again (`begun`). Undefined otherwise: the call is left for the loop to decide.
 */
export function beginCall(message: Message, toolCallId: string, tools: readonly Tool[], now: number): Message | undefined {
  const next = nextQueuedCall(message);
  if (next?.toolCallId !== toolCallId) return undefined;
  const decision = decideCall(message.blocks, next, tools, now);
  if (decision.kind !== 'run') return undefined;
  return { ...message, blocks: message.blocks.map((block) => (block === next ? decision.running : block)) };
}

/**
 * Processes the message's queued tool calls in order, from what is stored, so a resume after a pause or a crash goes
 * on where it stopped. A call is checked, then asks the user (a question; an "Ask" tool not yet approved) — the run
 * pauses, durably — or runs: marked `running` in storage BEFORE the tool is called and finished after, so a crash in
 * between leaves a record that it may have run, never a silent re-run. `begun`: a call the transaction that started the
 * run marked running already (see beginCall); it is decided again with the tools as they are now, and run without a
 * second mark (or, when it no longer runs, its outcome stored in place of the mark). After a question, later calls are
 * refused. Mutates `message` (the loop's copy) and stores every change.
 */
export async function processToolCalls(message: Message, ports: CallPorts, signal: AbortSignal, begun?: string): Promise<CallsEnd> {
  let invalid = 0;
  let unsaved = false;
  const save = (runState: RunState) => {
    unsaved = false;
    return ports.save(syncPendingIndex(message), runState);
  };
  for (let index = 0; index < message.blocks.length; index += 1) {
    const stored = message.blocks[index]!;
    if (stored.type !== 'tool_call') continue;
    const marked = stored.status === 'running' && stored.toolCallId === begun;
    if (stored.status !== 'pending' && !marked) continue;
    const block: ToolCallBlock = marked ? { ...stored, status: 'pending' } : stored;
    message.blocks[index] = block;
    if (awaitsApproval(message.blocks, block)) return { kind: 'paused' };
    if (signal.aborted) {
      stopQueued(message, index);
      return (await save('idle')) ? { kind: 'stopped' } : { kind: 'deleted' };
    }
    const decision = decideCall(message.blocks, block, ports.tools, ports.now());
    if (decision.kind === 'answered') {
      if (decision.invalid) invalid += 1;
      message.blocks[index] = decision.block;
      unsaved = true;
      continue;
    }
    if (decision.kind === 'question') {
      message.blocks[index] = decision.block;
      refuseLaterCalls(message, index + 1);
      return (await save('awaiting_input')) ? { kind: 'paused' } : { kind: 'deleted' };
    }
    if (decision.kind === 'approval') {
      message.blocks[index] = decision.block;
      message.blocks = withApproval(message.blocks, decision.approval);
      return (await save('awaiting_input')) ? { kind: 'paused' } : { kind: 'deleted' };
    }
    const { running, tool, approval } = decision;
    message.blocks[index] = running;
    // Stored with the mark already (the same record): the tool is called at once.
    const alreadyStored = marked && JSON.stringify(running) === JSON.stringify(stored);
    if (!alreadyStored && !(await save('running'))) return { kind: 'deleted' };
    let finished: ToolCallBlock;
    try {
      const output = await tool.execute(decision.args, toolContext(message, running, tool, ports, signal, save));
      finished = { ...running, status: output.isError ? 'error' : 'success', result: ranText(running, approval, output.text) };
    } catch (error) {
      if (signal.aborted) {
        replaceCall(message, { ...running, status: 'stopped', result: STOPPED_WHILE_RUNNING_TEXT });
        stopQueued(message, 0);
        return (await save('idle')) ? { kind: 'stopped' } : { kind: 'deleted' };
      }
      finished = { ...running, status: 'error', result: ranText(running, approval, `The tool failed: ${error instanceof Error ? error.message : String(error)}`) };
    }
    replaceCall(message, finished);
    if (!(await save('running'))) return { kind: 'deleted' };
  }
  // Results that needed no tool (refusals, invalid input) are stored too, before the model reads them.
  if (unsaved && !(await save('running'))) return { kind: 'deleted' };
  return { kind: 'done', invalid };
}

/** The context a running tool gets: the signal (Stop cancels it) and, where the user can be asked, `elicit`. */
function toolContext(message: Message, call: ToolCallBlock, tool: Tool, ports: CallPorts, signal: AbortSignal, save: (runState: RunState) => Promise<boolean>): ToolContext {
  const context: ToolContext = { now: ports.now, signal };
  const report = ports.reportProgress;
  if (report) context.reportProgress = (progress) => report(message, call.toolCallId, progress);
  const wait = ports.waitForRequest;
  if (!wait) return context;
  context.elicit = async (request): Promise<ElicitationResponse> => {
    const block: ElicitationRequest = {
      type: 'request',
      kind: 'elicitation',
      requestId: ports.newId(),
      toolCallId: call.toolCallId,
      status: 'pending',
      payload: { serverName: tool.source?.serverName ?? tool.name, message: request.message.slice(0, 10_000), requestedSchema: request.requestedSchema },
    };
    const at = message.blocks.findIndex((candidate) => candidate.type === 'tool_call' && candidate.toolCallId === call.toolCallId);
    message.blocks.splice(at + 1, 0, block);
    // The request is stored (and the conversation waits for the user) before anyone is asked.
    if (!(await save('awaiting_input'))) return { action: 'cancel' };
    const resolved = await wait(message.id, block.requestId, signal);
    if (resolved.type !== 'request' || resolved.kind !== 'elicitation') return { action: 'cancel' };
    const position = message.blocks.findIndex((candidate) => candidate.type === 'request' && candidate.requestId === block.requestId);
    if (position >= 0) message.blocks[position] = resolved;
    syncPendingIndex(message);
    if (resolved.resolution === 'accepted') return { action: 'accept', content: resolved.response?.content ?? {} };
    return resolved.resolution === 'declined' ? { action: 'decline' } : { action: 'cancel' };
  };
  return context;
}

function replaceCall(message: Message, call: ToolCallBlock): void {
  const at = message.blocks.findIndex((candidate) => candidate.type === 'tool_call' && candidate.toolCallId === call.toolCallId);
  if (at >= 0) message.blocks[at] = call;
}

function refuseLaterCalls(message: Message, from: number): void {
  for (let index = from; index < message.blocks.length; index += 1) {
    const block = message.blocks[index]!;
    if (block.type === 'tool_call' && block.status === 'pending') message.blocks[index] = { ...block, status: 'error', result: AFTER_QUESTION_TEXT };
  }
}

function stopQueued(message: Message, from: number): void {
  for (let index = from; index < message.blocks.length; index += 1) {
    const block = message.blocks[index]!;
    if (block.type === 'tool_call' && block.status === 'pending') message.blocks[index] = { ...block, status: 'stopped', result: STOPPED_BEFORE_TOOL_TEXT };
  }
}

/** Whether a call of the message is still to run or running (its results are not all in). */
export function callsLeft(message: Message): boolean {
  return message.blocks.some((block) => block.type === 'tool_call' && (block.status === 'pending' || block.status === 'running'));
}
