import type { Block, RequestBlock, RequestKind, RequestOf } from '../../schema/blocks';
import type { DeviceRef } from '../../schema/sync/device';
import type { ResolvedOutcome } from '../../schema/wire-error';

// Light and zod-free: the worker's first screen repairs requests through these descriptors before zod loads.
// How a response resolves each kind, and how it is shown to the model, is the descriptor's other half, in
// core/requests/requests.ts (`RequestResolver`).

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
 * What the app asks of one kind of request, but how a response resolves it (its `RequestResolver`, in core/requests/requests.ts):
 * the requests' code asks these two and never switches over kinds. See docs/architecture.md, "Requests".
 */
interface RequestKindDescriptor<R extends RequestBlock> {
  /** How it was resolved, told to a second resolution. */
  outcome(request: R): ResolvedOutcome;
  /** What a second resolution is told, in English (the UI words `already_resolved` itself). */
  alreadyResolved: string;
  /**
   * Set for a kind that only the live run that asked can receive (its asker waits in memory beside the stored request):
   * how a pending one is closed when that run is gone. Without it, a request waits in storage across restarts.
   */
  closeWhenRunDies?(request: R, now: number): R;
}

const QUESTION: RequestKindDescriptor<RequestOf<'question'>> = {
  outcome: (request) => ({ resolution: request.resolution ?? 'answered', ...(request.response?.answers ? { answers: request.response.answers } : {}), ...resolvedWhenWhere(request) }),
  alreadyResolved: 'These questions were already answered, possibly in another tab.',
};

const APPROVAL: RequestKindDescriptor<RequestOf<'permission'>> = {
  outcome: (request) => ({ resolution: request.resolution ?? 'approved', ...resolvedWhenWhere(request) }),
  alreadyResolved: 'This was already decided, possibly in another tab.',
};

const ELICITATION: RequestKindDescriptor<RequestOf<'elicitation'>> = {
  outcome: (request) => ({ resolution: request.resolution ?? 'accepted', ...resolvedWhenWhere(request) }),
  alreadyResolved: 'This was already decided, possibly in another tab.',
  closeWhenRunDies: (request, now) => ({ ...request, status: 'denied', resolution: 'interrupted', resolvedAt: now }),
};

function resolvedWhenWhere(record: { resolvedAt?: number | undefined; resolvedOn?: DeviceRef | undefined }): Pick<ResolvedOutcome, 'resolvedAt' | 'resolvedOn'> {
  return { ...(record.resolvedAt ? { resolvedAt: record.resolvedAt } : {}), ...(record.resolvedOn ? { resolvedOn: record.resolvedOn } : {}) };
}

/** The descriptor of each kind of request. */
export const REQUEST_KINDS: { readonly [K in RequestKind]: RequestKindDescriptor<RequestOf<K>> } = {
  question: QUESTION,
  permission: APPROVAL,
  rerun: APPROVAL,
  elicitation: ELICITATION,
};

/** The descriptor of `request`'s kind. */
export function requestKindOf<R extends RequestBlock>(request: R): RequestKindDescriptor<R> {
  return REQUEST_KINDS[request.kind] as unknown as RequestKindDescriptor<R>;
}

/** Whether `block` is a request for the user. */
export function isRequest(block: Block): block is RequestBlock {
  return block.type === 'request';
}

/** Whether only the live run that asked can receive `block`'s answer (see `closeWhenRunDies`). */
export function needsLiveRun(block: Block): boolean {
  return isRequest(block) && requestKindOf(block).closeWhenRunDies !== undefined;
}
