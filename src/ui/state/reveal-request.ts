import { createSignal } from 'solid-js';

// A search result asks the conversation's message log to scroll to one message: the log may not exist yet (the
// conversation opens after the navigation), so the request waits here until that log takes it.

/** A message to bring into view, by its place (`seq`) in its conversation. A new object each time it is asked. */
interface RevealRequest {
  conversationId: string;
  seq: number;
}

const [request, setRequest] = createSignal<RevealRequest>();

/** Asks the log of `conversationId` to scroll to the message at `seq` once it shows that conversation. */
export function requestReveal(conversationId: string, seq: number): void {
  setRequest({ conversationId, seq });
}

/** The waiting request for this conversation, if any (tracked: a log re-runs when one arrives). */
export function revealFor(conversationId: string): RevealRequest | undefined {
  const waiting = request();
  return waiting?.conversationId === conversationId ? waiting : undefined;
}

/** The log has scrolled to it: a later visit to the conversation opens at its end as usual. */
export function revealDone(done: RevealRequest): void {
  if (request() === done) setRequest(undefined);
}
