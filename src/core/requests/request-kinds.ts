import type { Block, RequestBlock, RequestKind, RequestOf } from '../../schema/messages/blocks';

// Light and zod-free: the worker's first screen repairs requests through this before zod loads. What a kind is and
// how a response resolves it, how it is told and shown to the model, is its descriptor, `RequestResolver`, in
// core/requests/requests.ts.

/**
 * A request for the user — a question, a tool call waiting for approval (or for "Run again / Skip" after a crash), or an
 * MCP server's elicitation — is one stored block, `{ type: 'request', kind, … }`, `pending` until exactly one
 * resolution is stored.
 */
export type { RequestBlock, RequestKind, RequestOf };

/**
 * What names one request exactly, beyond its id: its kind and, for an approval, when the runner asked. A tool call keeps
 * its id through its permission and any rerun, so an answer given for one must name which (see sync's proposals).
 */
export interface RequestBinding {
  kind: RequestKind;
  requestedAt?: number | undefined;
}

/**
 * The kinds that only the live run that asked can receive (its asker waits in memory beside the stored request), and
 * how a pending one is closed when that run is gone. Any other kind waits in storage across restarts, and needs no
 * entry: all else about a kind is its `RequestResolver` (core/requests/requests.ts). See docs/architecture.md, "Requests".
 */
const LIVE_RUN_ONLY: { readonly [K in RequestKind]?: (request: RequestOf<K>, now: number) => RequestOf<K> } = {
  elicitation: (request, now) => ({ ...request, status: 'denied', resolution: 'interrupted', resolvedAt: now }),
};

/** `request` closed because the run that asked is gone, for a kind only that run can receive; undefined otherwise. */
export function closeWhenRunDies<R extends RequestBlock>(request: R, now: number): R | undefined {
  return (LIVE_RUN_ONLY[request.kind] as ((request: R, now: number) => R) | undefined)?.(request, now);
}

/** Whether `block` is a request for the user. */
export function isRequest(block: Block): block is RequestBlock {
  return block.type === 'request';
}

/** Whether only the live run that asked can receive `block`'s answer (see LIVE_RUN_ONLY). */
export function needsLiveRun(block: Block): boolean {
  return isRequest(block) && LIVE_RUN_ONLY[block.kind] !== undefined;
}
