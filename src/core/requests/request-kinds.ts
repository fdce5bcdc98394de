import type { Block, ElicitationRequestBlock, QuestionRequestBlock, RequestKind, ToolCallBlock } from '../../schema/blocks';
import type { DeviceRef } from '../../schema/sync/device';
import type { PendingRequest } from '../../schema/protocol';
import type { ResolvedOutcome } from '../../schema/wire-error';

// Light and zod-free: the worker's first screen lists and repairs requests through these descriptors before zod loads.
// How a response resolves each kind is the descriptor's other half, in core/requests/requests.ts (`RequestResolver`).

/**
 * A request for the user: a question, a tool call waiting for approval (or for "Run again / Skip" after a crash), or an
 * MCP server's elicitation. Each is a block that is `pending` until exactly one resolution is stored.
 */
export type RequestBlock = QuestionRequestBlock | ElicitationRequestBlock | ToolCallBlock;

/** Which request a block asks: a tool call asks first for permission, and after an interruption whether to run it again. */
export type { RequestKind };

/**
 * What names one request exactly, beyond its id: its kind and, for an approval, when the runner asked. A tool call keeps
 * its id through its permission and any rerun, so an answer given for one must name which (see sync's proposals).
 */
export interface RequestBinding {
  kind: RequestKind;
  requestedAt?: number | undefined;
}

/** What the inbox lists of a pending request, beyond where it is. */
type Listed = PendingRequest extends infer Item ? (Item extends unknown ? Omit<Item, 'conversationId' | 'conversationTitle' | 'messageId' | 'requestId'> : never) : never;

/**
 * What the app asks of one kind of request, but how a response resolves it (its `RequestResolver`, in core/requests/requests.ts):
 * the requests' code asks these two and never switches over kinds. See docs/architecture.md, "Requests".
 */
interface RequestKindDescriptor<B extends RequestBlock> {
  /** Its id; undefined for a block of this type that is not (and never was) a request (a call that never asked). */
  requestId(block: B): string | undefined;
  isPending(block: B): boolean;
  binding(block: B): RequestBinding;
  /** What the inbox shows of it while it waits. */
  listed(block: B): Listed;
  /** Marked with the device where the user decided. */
  stamp(block: B, device: DeviceRef): B;
  /** How it was resolved, told to a second resolution. */
  outcome(block: B): ResolvedOutcome;
  /** What a second resolution is told, in English (the UI words `already_resolved` itself). */
  alreadyResolved: string;
  /**
   * Set for a kind that only the live run that asked can receive (its asker waits in memory beside the stored request):
   * how a pending one is closed when that run is gone. Without it, a request waits in storage across restarts.
   */
  closeWhenRunDies?(block: B, now: number): B;
}

const QUESTION: RequestKindDescriptor<QuestionRequestBlock> = {
  requestId: (block) => block.toolCallId,
  isPending: (block) => block.status === 'pending',
  binding: () => ({ kind: 'question' }),
  listed: (block) => ({ kind: 'question', questions: block.questions }),
  stamp: (block, device) => ({ ...block, resolvedOn: device }),
  outcome: (block) => ({ resolution: block.resolution ?? 'answered', ...(block.answers ? { answers: block.answers } : {}), ...resolvedWhenWhere(block) }),
  alreadyResolved: 'These questions were already answered, possibly in another tab.',
};

const APPROVAL: RequestKindDescriptor<ToolCallBlock> = {
  requestId: (block) => (block.approval ? block.toolCallId : undefined),
  isPending: (block) => block.approval?.status === 'pending',
  binding: (block) => ({ kind: block.approval?.kind ?? 'permission', ...(block.approval?.requestedAt !== undefined ? { requestedAt: block.approval.requestedAt } : {}) }),
  listed: (block) => ({ kind: 'approval', toolName: block.toolName, approval: block.approval }),
  stamp: (block, device) => (block.approval ? { ...block, approval: { ...block.approval, resolvedOn: device } } : block),
  outcome: (block) => ({ resolution: block.approval?.resolution ?? 'approved', ...resolvedWhenWhere(block.approval ?? {}) }),
  alreadyResolved: 'This was already decided, possibly in another tab.',
};

const ELICITATION: RequestKindDescriptor<ElicitationRequestBlock> = {
  requestId: (block) => block.requestId,
  isPending: (block) => block.status === 'pending',
  binding: () => ({ kind: 'elicitation' }),
  listed: (block) => ({ kind: 'elicitation', serverName: block.serverName, message: block.message }),
  stamp: (block, device) => ({ ...block, resolvedOn: device }),
  outcome: (block) => ({ resolution: block.resolution ?? 'accepted', ...resolvedWhenWhere(block) }),
  alreadyResolved: 'This was already decided, possibly in another tab.',
  closeWhenRunDies: (block, now) => ({ ...block, status: 'denied', resolution: 'interrupted', resolvedAt: now }),
};

function resolvedWhenWhere(record: { resolvedAt?: number | undefined; resolvedOn?: DeviceRef | undefined }): Pick<ResolvedOutcome, 'resolvedAt' | 'resolvedOn'> {
  return { ...(record.resolvedAt ? { resolvedAt: record.resolvedAt } : {}), ...(record.resolvedOn ? { resolvedOn: record.resolvedOn } : {}) };
}

/** The descriptor of each block type that may hold a request. */
export const REQUEST_KINDS: { readonly [Type in RequestBlock['type']]: RequestKindDescriptor<Extract<RequestBlock, { type: Type }>> } = {
  question_request: QUESTION,
  tool_call: APPROVAL,
  elicitation_request: ELICITATION,
};

/** The descriptor for `block`'s type, if that type may hold a request (whether or not this block is one). */
export function requestKindOf<B extends Block>(block: B): RequestKindDescriptor<Extract<B, RequestBlock>> | undefined {
  return (REQUEST_KINDS as Partial<Record<Block['type'], RequestKindDescriptor<never>>>)[block.type] as RequestKindDescriptor<Extract<B, RequestBlock>> | undefined;
}

/** Whether only the live run that asked can receive `block`'s answer (see `closeWhenRunDies`). */
export function needsLiveRun(block: Block): boolean {
  return requestKindOf(block)?.closeWhenRunDies !== undefined;
}
