import { WireError } from '../../schema/wire-error';
import type { ReplyEnvelope, WorkerMessage } from '../../schema/protocol';
import { clipForPage } from '../store/page-copy';

/** The part of a Worker global or a MessagePort that the channel uses. */
interface PortLike {
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
    const command = (data as { command?: unknown }).command;
    // Messages go to the page with long texts clipped, but for `message.whole`, which asks for the whole message.
    const whole = (command as { type?: unknown } | null)?.type === 'message.whole';
    void handle(command).then(
      (result) => port.postMessage({ kind: 'reply', id, ok: true, result: whole ? result : clipForPage(result) } satisfies ReplyEnvelope),
      (error: unknown) => port.postMessage({ kind: 'reply', id, ok: false, error: serializeError(error) } satisfies ReplyEnvelope),
    );
  });
}

function serializeError(error: unknown) {
  if (error instanceof WireError) return error.toJSON();
  return new WireError({ code: 'internal', message: `Something went wrong in the worker: ${error instanceof Error ? error.message : String(error)}` }).toJSON();
}
