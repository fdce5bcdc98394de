import { AppEvent } from '../schema/events';

/** What workers of other tabs say to each other. */
export type PeerMessage = { kind: 'event'; event: AppEvent } | { kind: 'stop'; conversationId: string };

export interface PeerChannel {
  /** Tells the other tabs' workers of a committed change, so their UIs update. */
  broadcast(event: AppEvent): void;
  requestStop(conversationId: string): void;
  close(): void;
}

/** A BroadcastChannel between this origin's workers. Incoming events are validated: a peer may run another version. */
export function openPeerChannel(
  name: string,
  handlers: { event(event: AppEvent): void; stop(conversationId: string): void },
): PeerChannel {
  const channel = new BroadcastChannel(name);
  channel.addEventListener('message', (message: MessageEvent) => {
    const data = message.data as Partial<PeerMessage> | null;
    if (data?.kind === 'stop' && typeof data.conversationId === 'string') handlers.stop(data.conversationId);
    if (data?.kind === 'event') {
      const parsed = AppEvent.safeParse(data.event);
      if (parsed.success) handlers.event(parsed.data);
    }
  });
  return {
    broadcast: (event) => channel.postMessage({ kind: 'event', event } satisfies PeerMessage),
    requestStop: (conversationId) => channel.postMessage({ kind: 'stop', conversationId } satisfies PeerMessage),
    close: () => channel.close(),
  };
}
