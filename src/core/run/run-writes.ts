// The run's writes that end a model step or the run (loop.ts): the message and the conversation's run fields together.
import type { Conversation, Message, RunError, RunState } from '../../schema/records';
import type { RunNotice } from '../../schema/events';
import type { ConversationStore } from './store';
import { messageText } from './message-text';
import { ModelError } from './model';

/** How a run ended: the conversation's new run state, `stopped` (now idle), or `deleted` under it. */
export type RunEnd = Exclude<RunState, 'running'> | 'stopped' | 'deleted';

/** What the writes need of the loop's ports (LoopPorts, loop.ts). */
interface WritePorts {
  store: Pick<ConversationStore, 'applyRun'>;
  now(): number;
  onProgress?(message: Message): void;
}

/** What a step's last write sets: the run's state (and error), the message's status, whether the step counts. */
interface StepState {
  runState: RunState;
  runError?: RunError;
  messageStatus: Message['status'];
  countStep: boolean;
}

/**
 * Writes the step's last state: the message and the conversation's run fields in one transaction. Waits first for the
 * step's first write (`started`, see runStep), whose failure is the step's. Undefined when the conversation is gone.
 */
export async function saveStep(
  ports: WritePorts,
  conversation: Conversation,
  message: Message,
  state: StepState,
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
export async function finish(
  ports: WritePorts,
  conversation: Conversation,
  message: Message,
  state: StepState,
  started: Promise<Conversation | undefined> | undefined,
  end?: RunEnd,
): Promise<RunEnd> {
  if (!(await saveStep(ports, conversation, message, state, started))) return 'deleted';
  return end ?? (state.runState === 'running' ? 'idle' : (state.runState as RunEnd));
}

/** The history with `message` in place of the stored one of the same id, or after the others. */
export function withMessage(history: readonly Message[], message: Message): Message[] {
  const at = history.findIndex((stored) => stored.id === message.id);
  return at >= 0 ? history.map((stored, index) => (index === at ? message : stored)) : [...history, message];
}

export async function endWithError(ports: WritePorts, conversation: Conversation, code: string, text: string): Promise<RunEnd> {
  const ended = await ports.store.applyRun(conversation.id, { runState: 'error', runError: { code, message: text } }, []);
  return ended ? 'error' : 'deleted';
}

/** The model's reply failed for good: the run waits for the network, or ends with the error in the reply. */
export async function modelFailed(
  ports: WritePorts & { onNotice?(conversationId: string, notice: RunNotice | null): void },
  reply: { conversation: Conversation; message: Message; started: Promise<Conversation | undefined> | undefined },
  error: unknown,
): Promise<RunEnd> {
  const { conversation, message, started } = reply;
  const modelError = error instanceof ModelError ? error : new ModelError('bad_stream', `The model's reply failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  const runError = { code: modelError.code, message: modelError.message, ...(modelError.detail ? { detail: modelError.detail } : {}) };
  if (modelError.code === 'network') {
    ports.onNotice?.(conversation.id, { kind: 'waiting_network', message: modelError.message });
    return finish(ports, conversation, message, { runState: 'waiting_network', runError, messageStatus: 'interrupted', countStep: false }, started);
  }
  message.blocks.push({ type: 'error', ...runError });
  // A reply cut mid-way keeps its text as interrupted, so Continue carries on in the same message.
  const messageStatus = modelError.code === 'bad_stream' && messageText(message) !== '' ? 'interrupted' : 'error';
  return finish(ports, conversation, message, { runState: 'error', runError, messageStatus, countStep: false }, started);
}
