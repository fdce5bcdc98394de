/** What the page talks to the worker through: a Worker, a MessagePort, or the supervisor's stable port over either. */
export interface MessagePortLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  /** A Worker fires "error" when its script fails (a MessagePort never does). */
  addEventListener(type: 'error', listener: (event: Event) => void): void;
}

/** Sent to the message listeners after a restart, so the client can fail what the dead worker never answered. */
export const WORKER_RESTARTED = 'worker-restarted';
