import type { DeviceRef } from '../schema/device';
import type { Message } from '../schema/records';
import type { ResolvedOutcome } from '../schema/protocol';
import { bindingMatches, requestIdOf, withPendingIndex } from './request-ids';
import { requestKindOf, type RequestBlock, type RequestResolution, type ResolveContext, type ResolveResult } from './request-kinds';

// Which block is a request, and whether it is pending: zod-free, for the worker's first screen (see request-ids).
export { findRequest, isPendingRequest, requestIdOf, syncPendingIndex, withPendingIndex, type RequestBlock } from './request-ids';
export type { RequestResolution, ResolveContext, ResolveResult } from './request-kinds';

/** The message with `block` in place of the request of the same id, and its pending-request index field recomputed. */
export function withRequest(message: Message, block: RequestBlock, now: number): Message {
  const id = requestIdOf(block);
  const blocks = message.blocks.map((existing) => (requestIdOf(existing) === id && existing.type === block.type ? block : existing));
  return withPendingIndex({ ...message, blocks, updatedAt: now });
}

/**
 * The resolved block for a pending request, and the conversation's run state after it; or why the params are refused.
 * Pure: the store calls it inside its compare-and-set transaction.
 */
export function resolveRequest(block: RequestBlock, resolution: RequestResolution, context: ResolveContext): ResolveResult {
  if (resolution.expect && !bindingMatches(block, resolution.expect)) {
    return { ok: false, field: 'requestId', reason: 'request_changed', params: {}, message: 'This is not the request that was decided: it was asked again since.' };
  }
  const result = requestKindOf(block)!.resolve(block, resolution, context);
  return result.ok && resolution.device ? { ...result, block: stampDevice(result.block, resolution.device) } : result;
}

/** The resolved block marked with the device where the user decided. */
export function stampDevice(block: RequestBlock, device: DeviceRef): RequestBlock {
  return requestKindOf(block)!.stamp(block, device);
}

/** A pending request closed because the user replied in chat instead (the message follows as their answer). */
export function resolveByChat(block: RequestBlock, now: number, answerMessageId: string): RequestBlock {
  return requestKindOf(block)!.closeByChat(block, now, answerMessageId);
}

/** A pending request closed by Stop. */
export function resolveByStop(block: RequestBlock, now: number): RequestBlock {
  return requestKindOf(block)!.closeByStop(block, now);
}

/** What a second resolution is told: how the request was resolved first. */
export function resolvedOutcomeOf(block: RequestBlock): ResolvedOutcome {
  return requestKindOf(block)!.outcome(block);
}
