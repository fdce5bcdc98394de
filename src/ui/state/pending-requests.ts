import type { PendingRequest } from '../../schema/protocol';
import type { WorkerClient } from './channel';

const reading = new WeakMap<WorkerClient, { key: string; promise: Promise<PendingRequest[]> }>();

/**
 * The pending requests, read when the store's `pendingKey` changes. The inbox, the list's pills and the notifications
 * each ask in the same frame: one worker read, still under way, answers them all, instead of three
 * transactions queued beside the first screen's. A read that has ended is never reused.
 */
export function listPendingRequests(client: WorkerClient, key: string): Promise<PendingRequest[]> {
  const current = reading.get(client);
  if (current?.key === key) return current.promise;
  const promise = client.send({ type: 'requests.listPending' });
  reading.set(client, { key, promise });
  const forget = () => {
    if (reading.get(client)?.promise === promise) reading.delete(client);
  };
  promise.then(forget, forget);
  return promise;
}
