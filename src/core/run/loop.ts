import type { Conversation, Message } from '../../schema/records';
import type { RunNotice, ToolProgress } from '../../schema/events';
import { createCoalescedWriter, type CoalescedWriter, type Timers } from './coalesced-writer';
import { parentForNext } from '../branches';
import { messageText, takePart } from './message-text';
import { retryDelay, type Model } from './model';
import { STOPPED_BEFORE_TOOL_TEXT } from '../tools/tool-outcomes';
import type { ConversationStore, RunSnapshot } from './store';
import type { Block } from '../../schema/messages/blocks';
import { callsLeft, hasQueuedCalls, processToolCalls, queuedCall, type CallsEnd, type ReceivedToolCall } from '../tools/tool-calls';
import type { Tool } from '../tools/tool';
import { toolSpecs } from '../tools/tools';
import { endWithError, finish, modelFailed, saveStep, withMessage, type RunEnd } from './run-writes';

export type { RunEnd } from './run-writes';

/** Everything the loop needs from the outside world. */
export interface LoopPorts {
  store: ConversationStore;
  getModel(conversation: Conversation): Promise<Model>;
  /** The tools this conversation offers now (built-ins, and those of connected MCP servers). */
  getTools(conversation: Conversation): Promise<readonly Tool[]>;
  /**
   * A model request of the conversation is near, after a tool the user just allowed: its provider's connection, idle
   * while the card was read, may be opened again meanwhile (see RunSnapshot.begunCall). Never awaited; never fails.
   */
  readyModel?(conversation: Conversation): void;
  /** Resolves with a request's block once it is resolved in storage; see CallPorts.waitForRequest. */
  waitForRequest?(messageId: string, requestId: string, signal: AbortSignal): Promise<Block>;
  now(): number;
  newId(): string;
  timers: Timers;
  /** Resolves after `ms`, rejects when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** A streaming message changed (not yet persisted). Called often; the caller throttles. */
  onProgress?(message: Message): void;
  /** A running tool's progress (see CallPorts.reportProgress): for the UI only, never stored. */
  onToolProgress?(message: Message, toolCallId: string, progress: ToolProgress): void;
  onNotice?(conversationId: string, notice: RunNotice | null): void;
  onStorageError?(error: unknown): void;
  /** Interval of coalesced writes of a streaming message. */
  persistIntervalMs?: number;
  maxStepsPerRun?: number;
  maxInvalidQuestions?: number;
  maxRetries?: number;
}

/**
 * How a step ended: the run goes on from `run` (the step's own writes applied), with the next step's model and tools
 * already asked for when the step's last write was (see runCalls), or it is over.
 */
type StepEnd = { kind: 'continue'; invalidQuestions: number; run: RunSnapshot; next?: PreparedStep } | { kind: 'end'; end: RunEnd };

/**
 * A model step's model and tools, asked for before the step begins; each awaited where it was before (streamReply). The
 * model is of the profile the conversation had then: a step whose conversation names another (changed meanwhile) asks again.
 */
interface PreparedStep {
  profileId: string | undefined;
  model: Promise<Model>;
  tools: Promise<readonly Tool[]>;
}

/** Asks for a step's model and tools at once. A failure is left for the step to meet (a step never begun drops it). */
function prepareStep(conversation: Conversation, ports: LoopPorts): PreparedStep {
  const model = ports.getModel(conversation);
  const tools = ports.getTools(conversation);
  model.catch(() => undefined);
  tools.catch(() => undefined);
  return { profileId: conversation.profileId, model, tools };
}

/**
 * Runs model steps for a conversation from what is stored, until the model stops calling tools, asks a question
 * (the durable pause), fails, or `signal` aborts (Stop). Safe to call again after a crash: it never replays a step;
 * an interrupted reply is continued, not redone.
 *
 * `start` is the conversation as the caller just read or wrote it in its own transaction (an answer's compare-and-set);
 * without it, it is read here. After that the loop keeps its own copy instead of reading again before each step: it holds
 * the conversation's run lock, every other writer refuses a running conversation (a chat reply, a draft, a repair) or
 * reaches the run through it (an elicitation's answer wakes the waiting tool; Stop and delete abort `signal`), and each
 * of its writes returns the stored conversation, so the copy is what a read would give.
 */
export async function runConversation(conversationId: string, ports: LoopPorts, signal: AbortSignal, start?: RunSnapshot): Promise<RunEnd> {
  const maxSteps = ports.maxStepsPerRun ?? 25;
  const maxInvalidQuestions = ports.maxInvalidQuestions ?? 3;
  let invalidQuestions = 0;
  const first = start ?? (await ports.store.readRun(conversationId));
  if (!first) return 'deleted';
  let run: RunSnapshot = first;
  let next: PreparedStep | undefined;
  for (let step = 0; ; step += 1) {
    const { conversation, history, begunCall } = run;
    if (step >= maxSteps) {
      return endWithError(ports, conversation, 'step_limit', `Stopped after ${maxSteps} model steps in a row. Write a message to go on.`);
    }
    const last = history.at(-1);
    // Calls stored by an earlier step (approved since, or cut off before they ran) are finished before the model is
    // asked again: a resume never replays the model step that made them.
    const result = last?.role === 'assistant' && (hasQueuedCalls(last) || begunCall !== undefined)
      ? await runCalls(conversation, { ...last, blocks: [...last.blocks] }, history, ports, signal, begunCall)
      : await runStep(conversation, history, ports, signal, next);
    if (result.kind === 'end') return result.end;
    run = result.run;
    next = result.next;
    // "In a row": a step without an invalid question resets the count.
    invalidQuestions = result.invalidQuestions > 0 ? invalidQuestions + result.invalidQuestions : 0;
    if (invalidQuestions >= maxInvalidQuestions) {
      return endWithError(ports, run.conversation, 'invalid_questions', `The model sent ${invalidQuestions} invalid questions in a row, so the run was stopped. Write a message to go on.`);
    }
  }
}

/** One model step's reply while it streams, and what its attempts share. */
interface Reply {
  /** Stored as running already: by whoever started the run (in the transaction that did), or by the step before. */
  conversation: Conversation;
  history: Message[];
  message: Message;
  /** Each write waits for the reply's first (`started`): none stores a reply whose first write failed. */
  writer: CoalescedWriter<Message>;
  started: Promise<Conversation | undefined> | undefined;
  calls: ReceivedToolCall[];
  /** The first attempt's model and tools when they were asked for before the step (see runCalls). */
  prepared: PreparedStep | undefined;
  /**
   * The step's request is cancelled by Stop (the run's `signal`) or at once when the reply's first write fails (then
   * `step` alone is aborted, with that failure as its reason).
   */
  step: AbortController;
}

async function runStep(conversation: Conversation, history: Message[], ports: LoopPorts, signal: AbortSignal, prepared?: PreparedStep): Promise<StepEnd> {
  const reply = openReply(conversation, history, ports, prepared);
  const stop = () => reply.step.abort(signal.reason);
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  try {
    for (let attempt = 0; ; attempt += 1) {
      const produced = { any: false };
      try {
        await streamReply(reply, ports, produced);
        break;
      } catch (error) {
        const failed = await attemptFailed(reply, ports, signal, error, attempt, produced.any);
        if (failed !== 'retry') return failed;
      }
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
  await reply.writer.close();
  return replyDone(reply, ports, signal);
}

/** The reply a step streams into: an interrupted one continued, or a new one. */
function openReply(conversation: Conversation, history: Message[], ports: LoopPorts, prepared: PreparedStep | undefined): Reply {
  const last = history.at(-1);
  // An interrupted reply is continued; so is a new version a regeneration stored empty and streaming (see forkReply).
  const continuing = last?.role === 'assistant' && (last.status === 'interrupted' || (last.status === 'streaming' && last.blocks.length === 0));
  const message: Message = continuing
    ? { ...last, status: 'streaming', blocks: last.blocks.filter((block) => block.type !== 'error') }
    : { id: ports.newId(), conversationId: conversation.id, seq: (last?.seq ?? -1) + 1, parentId: parentForNext(history), role: 'assistant', blocks: [], status: 'streaming', createdAt: ports.now(), updatedAt: ports.now() };
  ports.onNotice?.(conversation.id, null); // a retry or network notice from before is over
  ports.onProgress?.(message);
  const reply: Reply = { conversation, history, message, started: undefined, calls: [], prepared, step: new AbortController(), writer: undefined as unknown as CoalescedWriter<Message> };
  reply.writer = createCoalescedWriter(
    async (value: Message) => {
      if (await reply.started?.catch(() => undefined)) await ports.store.write({ messages: [value] }, { ifExists: true });
    },
    { intervalMs: ports.persistIntervalMs ?? 250, timers: ports.timers, onError: ports.onStorageError },
  );
  return reply;
}

/** One attempt at the model's request, streamed into the reply; throws what ended it early. */
async function streamReply(reply: Reply, ports: LoopPorts, produced: { any: boolean }): Promise<void> {
  const { conversation, history, message, step } = reply;
  const early = reply.prepared?.profileId === conversation.profileId ? reply.prepared : undefined;
  const prepared = early ?? prepareStep(conversation, ports);
  reply.prepared = undefined; // a retry asks again
  const model = await prepared.model;
  const text = messageText(message);
  const continuation = text ? { messageId: message.id, text } : undefined;
  const requestHistory = [...history.filter((stored) => stored.id !== message.id), ...(continuation ? [message] : [])];
  const request = { conversation, history: requestHistory, tools: toolSpecs(await prepared.tools), signal: step.signal, ...(continuation ? { continuation } : {}) };
  // The streaming message is stored by a transaction begun here and awaited only when the step is saved (see saveStep),
  // so the request does not wait for it. IndexedDB runs readwrite transactions over the same stores in the order they
  // began, so every later write of the message lands after this one; a crash before it commits leaves the conversation
  // running with the previous messages, which a repair marks interrupted (Continue). The message itself, not a copy:
  // IndexedDB clones it when it is put, and the event told after the commit carries what has streamed by then, never
  // less than the UI already shows. Its failure (a full disk) cancels the request: a reply that cannot be stored is not
  // streamed and shown first.
  if (!reply.started) {
    reply.started = ports.store.applyRun(conversation.id, { runState: 'running' }, [message]);
    reply.started.catch((error: unknown) => step.abort(error));
  }
  for await (const part of model.streamStep(request)) {
    if (step.signal.aborted) break;
    if (takePart(message, reply.calls, part)) produced.any = true;
    message.updatedAt = ports.now();
    ports.onProgress?.(message);
    reply.writer.schedule(message);
  }
  if (step.signal.aborted) throw step.signal.reason;
}

/** What an attempt's failure comes to: Stop, a storage failure (thrown), a retry after a wait, or the run's end. */
async function attemptFailed(reply: Reply, ports: LoopPorts, signal: AbortSignal, error: unknown, attempt: number, produced: boolean): Promise<StepEnd | 'retry'> {
  const { conversation, message, step, writer, started } = reply;
  if (step.signal.aborted && !signal.aborted) {
    // As when the write was awaited before the request: the run's storage failure (see RunManager.start).
    await writer.close();
    throw step.signal.reason;
  }
  if (signal.aborted) {
    await writer.close();
    return { kind: 'end', end: await finish(ports, conversation, message, { runState: 'idle', messageStatus: 'stopped', countStep: true }, started, 'stopped') };
  }
  const retry = retryDelay(error, attempt, ports.maxRetries ?? 4);
  if (retry !== undefined && !produced) {
    ports.onNotice?.(conversation.id, { kind: 'retrying', message: (error as Error).message, retryAt: ports.now() + retry, attempt: attempt + 1 });
    try {
      await ports.sleep(retry, step.signal);
    } catch {
      await writer.close();
      if (!signal.aborted) throw step.signal.reason; // the first write failed
      ports.onNotice?.(conversation.id, null);
      return { kind: 'end', end: await finish(ports, conversation, message, { runState: 'idle', messageStatus: 'stopped', countStep: false }, started, 'stopped') };
    }
    ports.onNotice?.(conversation.id, null);
    return 'retry';
  }
  await writer.close();
  ports.onNotice?.(conversation.id, null);
  return { kind: 'end', end: await modelFailed(ports, reply, error) };
}

/** The reply streamed whole: the run ends here, or its calls are stored queued and run. */
async function replyDone(reply: Reply, ports: LoopPorts, signal: AbortSignal): Promise<StepEnd> {
  const { conversation, history, message, calls, started } = reply;
  if (calls.length === 0 || signal.aborted) {
    message.blocks.push(...calls.map((call) => ({ ...queuedCall(call), status: 'stopped' as const, result: STOPPED_BEFORE_TOOL_TEXT })));
    return { kind: 'end', end: await finish(ports, conversation, message, { runState: 'idle', messageStatus: 'complete', countStep: true }, started, signal.aborted ? 'stopped' : undefined) };
  }
  // The step is stored with its calls queued before any of them runs: from here on a crash resumes them, never the step.
  message.blocks.push(...calls.map(queuedCall));
  const saved = await saveStep(ports, conversation, message, { runState: 'running', messageStatus: 'complete', countStep: true }, started);
  if (!saved) return { kind: 'end', end: 'deleted' };
  return runCalls(saved.conversation, { ...saved.message, blocks: [...saved.message.blocks] }, history, ports, signal);
}

/** Processes a message's queued tool calls (see processToolCalls) and says how the run goes on. */
async function runCalls(conversation: Conversation, message: Message, history: Message[], ports: LoopPorts, signal: AbortSignal, begunCall?: string): Promise<StepEnd> {
  let latest = { conversation, message };
  let next: PreparedStep | undefined;
  // An Allow's call runs first, and the model is asked next: its connection is readied while the tool runs.
  if (begunCall !== undefined) ports.readyModel?.(conversation);
  const end: CallsEnd = await processToolCalls(
    message,
    {
      tools: await ports.getTools(conversation),
      now: ports.now,
      newId: ports.newId,
      save: async (current, runState) => {
        const saved = { ...current, updatedAt: ports.now() };
        const writing = ports.store.applyRun(conversation.id, { runState }, [saved]);
        // The message's last result, and the run goes on: the next step's model and tools are asked for while it
        // commits. Its request still waits for the commit (the step begins once this save resolved).
        next = runState === 'running' && !callsLeft(saved) ? prepareStep(latest.conversation, ports) : undefined;
        const written = await writing;
        if (written) {
          ports.onProgress?.(saved);
          latest = { conversation: written, message: { ...saved, blocks: [...saved.blocks] } };
        }
        return written !== undefined;
      },
      ...(ports.waitForRequest ? { waitForRequest: ports.waitForRequest } : {}),
      ...(ports.onToolProgress ? { reportProgress: ports.onToolProgress } : {}),
    },
    signal,
    begunCall,
  );
  switch (end.kind) {
    case 'done':
      return { kind: 'continue', invalidQuestions: end.invalid, run: { conversation: latest.conversation, history: withMessage(history, latest.message) }, ...(next ? { next } : {}) };
    case 'paused':
      return { kind: 'end', end: 'awaiting_input' };
    case 'stopped':
      return { kind: 'end', end: 'stopped' };
    case 'deleted':
      return { kind: 'end', end: 'deleted' };
  }
}
