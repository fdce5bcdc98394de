import { WireError } from '../schema/wire-error';
import type { ReplyEnvelope, WorkerMessage } from '../schema/protocol';

/** The part of a Worker global or a MessagePort that the channel uses. */
export interface PortLike {
  postMessage(message: WorkerMessage): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/**
 * Answers every command envelope with exactly one reply: the handler's result, or its error serialized. An envelope
 * without an id cannot be answered and is dropped.
 */
export function serveCommands(port: PortLike, handle: (command: unknown) => Promise<unknown>): void {
  port.addEventListener('message', (event) => {
    const data: unknown = event.data;
    if (typeof data !== 'object' || data === null || (data as { kind?: unknown }).kind !== 'command') return;
    const id = (data as { id?: unknown }).id;
    if (typeof id !== 'string' || id.length === 0 || id.length > 200) return;
    void handle((data as { command?: unknown }).command).then(
      (result) => port.postMessage({ kind: 'reply', id, ok: true, result } satisfies ReplyEnvelope),
      (error: unknown) => port.postMessage({ kind: 'reply', id, ok: false, error: serializeError(error) } satisfies ReplyEnvelope),
    );
  });
}

function serializeError(error: unknown) {
  if (error instanceof WireError) return error.toJSON();
  return new WireError({ code: 'internal', message: `Something went wrong in the worker: ${error instanceof Error ? error.message : String(error)}` }).toJSON();
}
