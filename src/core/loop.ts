import type { Conversation, Message, RunError, RunState } from '../schema/records';
import type { RunNotice, ToolProgress } from '../schema/events';
import { createCoalescedWriter, type Timers } from './coalesced-writer';
import { parentForNext } from './branches';
import { appendDelta, messageText } from './message-text';
import { ModelError, type Model } from './model';
import { STOPPED_BEFORE_TOOL_TEXT } from './tool-outcomes';
import type { ConversationStore, RunSnapshot } from './store';
import type { Block } from '../schema/blocks';
import { hasQueuedCalls, processToolCalls, queuedCall, type CallsEnd, type ReceivedToolCall } from './tool-calls';
import type { Tool } from './tool';
import { toolSpecs } from './tools';

/** Everything the loop needs from the outside world. */
export interface LoopPorts {
  store: ConversationStore;
  getModel(conversation: Conversation): Promise<Model>;
  /** The tools this conversation offers now (built-ins, and those of connected MCP servers). */
  getTools(conversation: Conversation): Promise<readonly Tool[]>;
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

/** How a run ended: the conversation's new run state, `stopped` (now idle), or `deleted` under it. */
export type RunEnd = Exclude<RunState, 'running'> | 'stopped' | 'deleted';

/** How a step ended: the run goes on from `run` (the step's own writes applied), or it is over. */
type StepEnd = { kind: 'continue'; invalidQuestions: number; run: RunSnapshot } | { kind: 'end'; end: RunEnd };

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
  for (let step = 0; ; step += 1) {
    const { conversation, history } = run;
    if (step >= maxSteps) {
      return endWithError(ports, conversation, 'step_limit', `Stopped after ${maxSteps} model steps in a row. Write a message to go on.`);
    }
    const last = history.at(-1);
    // Calls stored by an earlier step (approved since, or cut off before they ran) are finished before the model is
    // asked again: a resume never replays the model step that made them.
    const result = last?.role === 'assistant' && hasQueuedCalls(last)
      ? await runCalls(conversation, { ...last, blocks: [...last.blocks] }, history, ports, signal)
      : await runStep(conversation, history, ports, signal);
    if (result.kind === 'end') return result.end;
    run = result.run;
    // "In a row": a step without an invalid question resets the count.
    invalidQuestions = result.invalidQuestions > 0 ? invalidQuestions + result.invalidQuestions : 0;
    if (invalidQuestions >= maxInvalidQuestions) {
      return endWithError(ports, run.conversation, 'invalid_questions', `The model sent ${invalidQuestions} invalid questions in a row, so the run was stopped. Write a message to go on.`);
    }
  }
}

async function runStep(conversation: Conversation, history: Message[], ports: LoopPorts, signal: AbortSignal): Promise<StepEnd> {
  const { store } = ports;
  const last = history.at(-1);
  // An interrupted reply is continued; so is a new version a regeneration stored empty and streaming (see forkReply).
  const continuing = last?.role === 'assistant' && (last.status === 'interrupted' || (last.status === 'streaming' && last.blocks.length === 0));
  const message: Message = continuing
    ? { ...last, status: 'streaming', blocks: last.blocks.filter((block) => block.type !== 'error') }
    : { id: ports.newId(), conversationId: conversation.id, seq: (last?.seq ?? -1) + 1, parentId: parentForNext(history), role: 'assistant', blocks: [], status: 'streaming', createdAt: ports.now(), updatedAt: ports.now() };
  // Stored as running already: by whoever started the run (in the transaction that did), or by the step before.
  const running = conversation;
  ports.onNotice?.(conversation.id, null); // a retry or network notice from before is over
  ports.onProgress?.(message);

  let started: Promise<Conversation | undefined> | undefined;
  // Each write waits for the reply's first (`started`): none stores a reply whose first write failed.
  const writer = createCoalescedWriter(
    async (value: Message) => {
      if (await started?.catch(() => undefined)) await store.write({ messages: [value] }, { ifExists: true });
    },
    { intervalMs: ports.persistIntervalMs ?? 250, timers: ports.timers, onError: ports.onStorageError },
  );
  const calls: ReceivedToolCall[] = [];
  // The step's request is cancelled by Stop (the run's `signal`) or at once when the reply's first write fails (then
  // `step` alone is aborted, with that failure as its reason).
  const step = new AbortController();
  const stop = () => step.abort(signal.reason);
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  try {
    for (let attempt = 0; ; attempt += 1) {
      let produced = false;
      try {
        const model = await ports.getModel(running);
        const text = messageText(message);
        const continuation = text ? { messageId: message.id, text } : undefined;
        const requestHistory = [...history.filter((stored) => stored.id !== message.id), ...(continuation ? [message] : [])];
        const request = { conversation: running, history: requestHistory, tools: toolSpecs(await ports.getTools(running)), signal: step.signal, ...(continuation ? { continuation } : {}) };
        // The streaming message is stored by a transaction begun here and awaited only when the step is saved (see
        // saveStep), so the request does not wait for it. IndexedDB runs readwrite transactions over the same stores in
        // the order they began, so every later write of the message lands after this one; a crash before it commits
        // leaves the conversation running with the previous messages, which a repair marks interrupted (Continue).
        // The message itself, not a copy: IndexedDB clones it when it is put, and the event told after the commit carries
        // what has streamed by then, never less than the UI already shows.
        // Its failure (a full disk) cancels the request: a reply that cannot be stored is not streamed and shown first.
        if (!started) {
          started = store.applyRun(conversation.id, { runState: 'running' }, [message]);
          started.catch((error: unknown) => step.abort(error));
        }
        for await (const part of model.streamStep(request)) {
          if (step.signal.aborted) break;
          if (part.type === 'text-delta' || part.type === 'reasoning-delta') {
            appendDelta(message, part.type === 'text-delta' ? 'text' : 'reasoning', part.text);
            produced = true;
          } else if (part.type === 'tool-call') {
            calls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
            produced = true;
          } else if (part.type === 'notice') {
            // Once per reply: a step tried again, or a reply continued, says it again.
            const notices = message.notices ?? [];
            if (!notices.some((notice) => notice.key === part.notice.key)) message.notices = [...notices, part.notice];
          } else if (part.usage) {
            message.usage = part.usage;
          }
          message.updatedAt = ports.now();
          ports.onProgress?.(message);
          writer.schedule(message);
        }
        if (step.signal.aborted) throw step.signal.reason;
        break;
      } catch (error) {
        if (step.signal.aborted && !signal.aborted) {
          // As when the write was awaited before the request: the run's storage failure (see RunManager.start).
          await writer.close();
          throw step.signal.reason;
        }
        if (signal.aborted) {
          await writer.close();
          return { kind: 'end', end: await finish(ports, running, message, { runState: 'idle', messageStatus: 'stopped', countStep: true }, started, 'stopped') };
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
            return { kind: 'end', end: await finish(ports, running, message, { runState: 'idle', messageStatus: 'stopped', countStep: false }, started, 'stopped') };
          }
          ports.onNotice?.(conversation.id, null);
          continue;
        }
        await writer.close();
        ports.onNotice?.(conversation.id, null);
        const modelError = error instanceof ModelError ? error : new ModelError('bad_stream', `The model's reply failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        const runError = { code: modelError.code, message: modelError.message, ...(modelError.detail ? { detail: modelError.detail } : {}) };
        if (modelError.code === 'network') {
          ports.onNotice?.(conversation.id, { kind: 'waiting_network', message: modelError.message });
          return { kind: 'end', end: await finish(ports, running, message, { runState: 'waiting_network', runError, messageStatus: 'interrupted', countStep: false }, started) };
        }
        message.blocks.push({ type: 'error', ...runError });
        // A reply cut mid-way keeps its text as interrupted, so Continue carries on in the same message.
        const messageStatus = modelError.code === 'bad_stream' && messageText(message) !== '' ? 'interrupted' : 'error';
        return { kind: 'end', end: await finish(ports, running, message, { runState: 'error', runError, messageStatus, countStep: false }, started) };
      }
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
  await writer.close();

  if (calls.length === 0 || signal.aborted) {
    message.blocks.push(...calls.map((call) => ({ ...queuedCall(call), status: 'stopped' as const, result: STOPPED_BEFORE_TOOL_TEXT })));
    return { kind: 'end', end: await finish(ports, running, message, { runState: 'idle', messageStatus: 'complete', countStep: true }, started, signal.aborted ? 'stopped' : undefined) };
  }
  // The step is stored with its calls queued before any of them runs: from here on a crash resumes them, never the step.
  message.blocks.push(...calls.map(queuedCall));
  const saved = await saveStep(ports, running, message, { runState: 'running', messageStatus: 'complete', countStep: true }, started);
  if (!saved) return { kind: 'end', end: 'deleted' };
  return runCalls(saved.conversation, { ...saved.message, blocks: [...saved.message.blocks] }, history, ports, signal);
}

/** Processes a message's queued tool calls (see processToolCalls) and says how the run goes on. */
async function runCalls(conversation: Conversation, message: Message, history: Message[], ports: LoopPorts, signal: AbortSignal): Promise<StepEnd> {
  let latest = { conversation, message };
  const end: CallsEnd = await processToolCalls(
    message,
    {
      tools: await ports.getTools(conversation),
      now: ports.now,
      newId: ports.newId,
      save: async (current, runState) => {
        const saved = { ...current, updatedAt: ports.now() };
        const written = await ports.store.applyRun(conversation.id, { runState }, [saved]);
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
  );
  switch (end.kind) {
    case 'done':
      return { kind: 'continue', invalidQuestions: end.invalid, run: { conversation: latest.conversation, history: withMessage(history, latest.message) } };
    case 'paused':
      return { kind: 'end', end: 'awaiting_input' };
    case 'stopped':
      return { kind: 'end', end: 'stopped' };
    case 'deleted':
      return { kind: 'end', end: 'deleted' };
  }
}

/**
 * Writes the step's last state: the message and the conversation's run fields in one transaction. Waits first for the
 * step's first write (`started`, see runStep), whose failure is the step's. Undefined when the conversation is gone.
 */
async function saveStep(
  ports: LoopPorts,
  conversation: Conversation,
  message: Message,
  state: { runState: RunState; runError?: RunError; messageStatus: Message['status']; countStep: boolean },
  started: Promise<Conversation | undefined> | undefined,
): Promise<{ conversation: Conversation; message: Message } | undefined> {
  if (started && !(await started)) return undefined;
  const finalMessage: Message = { ...message, status: state.messageStatus, updatedAt: ports.now() };
  const change = { runState: state.runState, countStep: state.countStep, ...(state.runError ? { runError: state.runError } : {}) };
  const stored = await ports.store.applyRun(conversation.id, change, [finalMessage]);
  if (!stored) return undefined;
  ports.onProgress?.(finalMessage);
  return { conversation: stored, message: finalMessage };
}

/** saveStep for a step that ends the run: how it ended. */
async function finish(
  ports: LoopPorts,
  conversation: Conversation,
  message: Message,
  state: { runState: RunState; runError?: RunError; messageStatus: Message['status']; countStep: boolean },
  started: Promise<Conversation | undefined> | undefined,
  end?: RunEnd,
): Promise<RunEnd> {
  if (!(await saveStep(ports, conversation, message, state, started))) return 'deleted';
  return end ?? (state.runState === 'running' ? 'idle' : (state.runState as RunEnd));
}

/** The history with `message` in place of the stored one of the same id, or after the others. */
function withMessage(history: readonly Message[], message: Message): Message[] {
  const at = history.findIndex((stored) => stored.id === message.id);
  return at >= 0 ? history.map((stored, index) => (index === at ? message : stored)) : [...history, message];
}

async function endWithError(ports: LoopPorts, conversation: Conversation, code: string, text: string): Promise<RunEnd> {
  const ended = await ports.store.applyRun(conversation.id, { runState: 'error', runError: { code, message: text } }, []);
  return ended ? 'error' : 'deleted';
}

/** How long to wait before retrying a failed step, or undefined when it should not be retried. */
function retryDelay(error: unknown, attempt: number, maxRetries: number): number | undefined {
  if (!(error instanceof ModelError) || attempt >= maxRetries) return undefined;
  if (error.code !== 'rate_limited' && error.code !== 'server') return undefined;
  if (error.code === 'server' && attempt >= 2) return undefined;
  return Math.min(60_000, error.retryAfterMs ?? 1000 * 2 ** attempt);
}
