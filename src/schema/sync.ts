import { z } from 'zod';
import { DeviceRef } from './device';
import { Conversation, Message } from './records';

// Sync (issue 19): what one device of a user tells the others through a CouchDB database, end-to-end encrypted.
// Every shape here is what a device DECRYPTS from the server: it is validated like any untrusted input.

export { DeviceRef };

/**
 * The device whose worker runs a conversation: its only authority (README, "Answer anywhere, resolved once"). `epoch` grows by one with every take-over
 * ("Continue on this device"), which is a `PUT` with the current `_rev` on the server: one device wins, never two.
 */
export const Runner = z.object({
  conversationId: z.string().min(1).max(100),
  device: DeviceRef,
  epoch: z.number().int().min(0),
  since: z.number(),
  /** The conversation's title on the device that took it over, as it took it over: a title other than it, written by the
   * device that ran it before, was given there meanwhile (a rename on two devices at once) and is kept, not dropped. */
  seenTitle: z.string().max(1000).optional(),
});
export type Runner = z.infer<typeof Runner>;

/** What a device that does not run a conversation asks the device that does (applied there by its compare-and-set). */
export const ProposalAction = z.discriminatedUnion('type', [
  /** An answer, Allow (with edited arguments), Deny, a form's content, Dismiss: `request.resolve`'s fields. */
  z.object({
    type: z.literal('resolve'),
    messageId: z.string().min(1).max(100),
    requestId: z.string().min(1).max(100),
    approved: z.boolean(),
    params: z.unknown().optional(),
    reason: z.string().max(2000).optional(),
    cancel: z.boolean().optional(),
    /** For a tool call: the SHA-256 of the arguments the user saw; the runner refuses a call that no longer matches. */
    argsHash: z.string().regex(/^[0-9a-f]{64}$/).optional(),
    /**
     * Which request the user decided (core/request-ids.ts `RequestBinding`): a tool call keeps its id from its permission
     * to any rerun, so an Allow names which. The runner refuses a resolve without it, or for another request.
     */
    request: z.object({ kind: z.enum(['question', 'permission', 'rerun', 'elicitation']), requestedAt: z.number().optional() }).optional(),
  }),
  /** A message typed into the composer (it also answers what waits, as a chat reply does). Its id makes it idempotent. */
  z.object({ type: z.literal('message'), messageId: z.string().min(1).max(100), text: z.string().min(1).max(100_000) }),
  z.object({ type: z.literal('stop') }),
]);
export type ProposalAction = z.infer<typeof ProposalAction>;

export const Proposal = z.object({
  /** Deterministic: one per request (or message) and device, so a device can propose a thing only once. */
  id: z.string().min(1).max(300),
  conversationId: z.string().min(1).max(100),
  from: DeviceRef,
  action: ProposalAction,
  createdAt: z.number(),
  /**
   * 128 random bits, sealed with the rest: the runner keeps every nonce it has applied in its own database, so a proposal
   * is applied at most once even when the server writes an old revision back. Proposals without one are refused.
   */
  nonce: z.string().regex(/^[0-9a-f]{32}$/).optional(),
  /** Set by the runner once it has tried it: applied, or refused (already decided elsewhere, invalid). */
  outcome: z.object({ status: z.enum(['applied', 'refused']), reason: z.string().max(100).optional(), at: z.number(), by: DeviceRef }).optional(),
});
export type Proposal = z.infer<typeof Proposal>;

/** The plaintext of one synced document. `writer` and `epoch` say who wrote it under which runner epoch. */
export const SyncPayload = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('conversation'), conversation: Conversation, writer: z.string().max(100), epoch: z.number().int().min(0) }),
  z.object({ kind: z.literal('conversation-deleted'), conversationId: z.string().min(1).max(100), writer: z.string().max(100), at: z.number() }),
  z.object({ kind: z.literal('message'), message: Message, writer: z.string().max(100), epoch: z.number().int().min(0) }),
  z.object({ kind: z.literal('runner'), runner: Runner }),
  z.object({ kind: z.literal('proposal'), proposal: Proposal }),
]);
export type SyncPayload = z.infer<typeof SyncPayload>;

/**
 * Documents from the server this device refused, by why; never applied. A server that is not tampered with gives none:
 * a document it cannot open (another key, or changed bytes), an older copy written back over a newer one (a replayed
 * record, or a decision applied before), or a record under another record's id.
 */
export const SyncRefusals = z.object({
  unreadable: z.number().int().min(0),
  replayed: z.number().int().min(0),
  misplaced: z.number().int().min(0),
  /** When the last one was refused. */
  lastAt: z.number(),
});
export type SyncRefusals = z.infer<typeof SyncRefusals>;

/** What Settings → Sync shows; `reason` is worded by the UI. Never carries the password or the passphrase. */
export const SyncStatus = z.object({
  state: z.enum(['off', 'starting', 'syncing', 'synced', 'offline', 'error']),
  reason: z.enum(['wrong_passphrase', 'unauthorized', 'unreachable', 'not_a_database', 'key_missing', 'server_full', 'server_error', 'no_crypto']).optional(),
  /** Documents moved in the current replication round, and how many it has to move, when known. */
  progress: z.object({ done: z.number().int().min(0), total: z.number().int().min(0) }).optional(),
  url: z.string().max(2000).optional(),
  username: z.string().max(200).optional(),
  device: DeviceRef,
  /** When the last replication round ended with nothing left to move. */
  lastSyncedAt: z.number().optional(),
  /** Present while anything from the server was refused (until the user clears the warning). */
  refused: SyncRefusals.optional(),
  /** The server's key document is gone, or is not the one this device joined with (never replaced silently). */
  keyDocument: z.enum(['missing', 'replaced']).optional(),
  /** While off: "Turn off sync" kept this device's mirror for a later "Turn on sync" (it can still be deleted). */
  mirrorKept: z.boolean().optional(),
});
export type SyncStatus = z.infer<typeof SyncStatus>;

/** The runner of every synced conversation that runs on ANOTHER device (the UI offers "Continue on this device"). */
export const RemoteRunners = z.record(z.string(), DeviceRef);
export type RemoteRunners = z.infer<typeof RemoteRunners>;
