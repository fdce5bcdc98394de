import * as z from '../zod-mini';
import { DeviceRef } from './device';
import { Conversation, Message } from '../records';

// Sync: what one device of a user tells the others through a CouchDB database, end-to-end encrypted.
// Every shape here is what a device DECRYPTS from the server: it is validated like any untrusted input.

export { DeviceRef };

/**
 * The device whose worker runs a conversation: its only authority (README, "Answer anywhere, resolved once"). `epoch` grows by one with every take-over
 * ("Continue on this device"), which is a `PUT` with the current `_rev` on the server: one device wins, never two.
 */
export const Runner = z.object({
  conversationId: z.string().check(z.minLength(1), z.maxLength(100)),
  device: DeviceRef,
  epoch: z.number().check(z.int(), z.gte(0)),
  since: z.number(),
  /** The conversation's title on the device that took it over, as it took it over: a title other than it, written by the
   * device that ran it before, was given there meanwhile (a rename on two devices at once) and is kept, not dropped. */
  seenTitle: z.optional(z.string().check(z.maxLength(1000))),
});
export type Runner = z.infer<typeof Runner>;

/**
 * A proposal as the build before the one-way-in dispatcher wrote it (three hand-written actions); read and upgraded to
 * the command it meant (`proposalCommandOf`), so a proposal written by that build still applies once.
 */
const ProposalActionV1 = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('resolve'),
    messageId: z.string().check(z.minLength(1), z.maxLength(100)),
    requestId: z.string().check(z.minLength(1), z.maxLength(100)),
    approved: z.boolean(),
    params: z.optional(z.unknown()),
    reason: z.optional(z.string().check(z.maxLength(2000))),
    cancel: z.optional(z.boolean()),
    argsHash: z.optional(z.string().check(z.regex(/^[0-9a-f]{64}$/))),
    request: z.optional(z.object({ kind: z.enum(['question', 'permission', 'rerun', 'elicitation']), requestedAt: z.optional(z.number()) })),
  }),
  z.object({ type: z.literal('message'), messageId: z.string().check(z.minLength(1), z.maxLength(100)), text: z.string().check(z.minLength(1), z.maxLength(100_000)) }),
  z.object({ type: z.literal('stop') }),
]);
type ProposalActionV1 = z.infer<typeof ProposalActionV1>;

/**
 * What a device that does not run a conversation asks the device that does: a command of scope `conversation`
 * (schema/commands.ts), exactly as its caller sent it plus what that device pinned. The runner validates it against the
 * command's own declaration and runs the same handler, through the same compare-and-set.
 */
export const ProposedCommand = z.looseObject({ type: z.string().check(z.minLength(1), z.maxLength(100)) });
export type ProposedCommand = z.infer<typeof ProposedCommand>;

/** The command an older build's proposal action meant. */
function proposalCommandOf(conversationId: string, action: ProposalActionV1): ProposedCommand {
  switch (action.type) {
    case 'resolve': {
      const { type: _type, argsHash, request, ...resolution } = action;
      const expect = request && { ...request, ...(argsHash ? { argsHash } : {}) };
      return { type: 'request.resolve', conversationId, ...resolution, ...(expect ? { expect } : {}) };
    }
    case 'message':
      return { type: 'message.send', conversationId, text: action.text, messageId: action.messageId };
    case 'stop':
      return { type: 'run.stop', conversationId };
  }
}

const ProposalFields = z.object({
  /** Deterministic: one per command (as pinned) and device, so a device proposes a thing only once. */
  id: z.string().check(z.minLength(1), z.maxLength(300)),
  conversationId: z.string().check(z.minLength(1), z.maxLength(100)),
  from: DeviceRef,
  command: z.optional(ProposedCommand),
  /** Written by the build before commands were proposed as themselves; read as `command` (see proposalCommandOf). */
  action: z.optional(ProposalActionV1),
  createdAt: z.number(),
  /**
   * 128 random bits, sealed with the rest: the runner keeps every nonce it has applied in its own database, so a proposal
   * is applied at most once even when the server writes an old revision back. Proposals without one are refused.
   */
  nonce: z.optional(z.string().check(z.regex(/^[0-9a-f]{32}$/))),
  /** Set by the runner once it has tried it: applied, or refused (already decided elsewhere, invalid). */
  outcome: z.optional(z.object({ status: z.enum(['applied', 'refused']), reason: z.optional(z.string().check(z.maxLength(100))), at: z.number(), by: DeviceRef })),
});

/** A proposal as read: always a `command` (an older build's `action` upgraded), never both. */
export const Proposal = z.pipe(
  ProposalFields.check(z.refine((proposal) => (proposal.command === undefined) !== (proposal.action === undefined), { message: 'a proposal holds a command' })),
  z.transform(({ action, ...proposal }: z.output<typeof ProposalFields>) => ({
    ...proposal,
    command: proposal.command ?? proposalCommandOf(proposal.conversationId, action!),
  })),
);
export type Proposal = z.output<typeof Proposal>;

/**
 * A conversation's messages as they travel since segments (docs/architecture.md, "Sync"): the runner packs them, in the
 * order it first wrote them, into segments of about `SEGMENT_CHARACTERS` of plaintext, and rewrites the segment a
 * message is in when the message changes. A message keeps its segment. `SEGMENT_MESSAGES` is only a guard, the most
 * the segment's schema below accepts: 64 KB is reached long before by any message. The build before also closed a
 * segment at 32 messages; its segments are read and continued as they are.
 */
export const SEGMENT_MESSAGES = 1000;
export const SEGMENT_CHARACTERS = 64 * 1024;

/** The plaintext of one synced document. `writer` and `epoch` say who wrote it under which runner epoch. */
export const SyncPayload = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('conversation'), conversation: Conversation, writer: z.string().check(z.maxLength(100)), epoch: z.number().check(z.int(), z.gte(0)) }),
  z.object({ kind: z.literal('conversation-deleted'), conversationId: z.string().check(z.minLength(1), z.maxLength(100)), writer: z.string().check(z.maxLength(100)), at: z.number() }),
  /** One message: what the build before segments wrote (still read and applied; no longer written). */
  z.object({ kind: z.literal('message'), message: Message, writer: z.string().check(z.maxLength(100)), epoch: z.number().check(z.int(), z.gte(0)) }),
  /** Segment `index` of a conversation's messages (see SEGMENT_CHARACTERS), sealed as one document in format 3. */
  z.object({
    kind: z.literal('segment'),
    conversationId: z.string().check(z.minLength(1), z.maxLength(100)),
    index: z.number().check(z.int(), z.gte(0), z.lte(1_000_000)),
    messages: z.array(Message).check(z.minLength(1), z.maxLength(1000)),
    writer: z.string().check(z.maxLength(100)),
    epoch: z.number().check(z.int(), z.gte(0)),
  }),
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
  unreadable: z.number().check(z.int(), z.gte(0)),
  replayed: z.number().check(z.int(), z.gte(0)),
  misplaced: z.number().check(z.int(), z.gte(0)),
  /** When the last one was refused. */
  lastAt: z.number(),
});
export type SyncRefusals = z.infer<typeof SyncRefusals>;

/** What Settings → Sync shows; `reason` is worded by the UI. Never carries the password or the passphrase. */
export const SyncStatus = z.object({
  state: z.enum(['off', 'starting', 'syncing', 'synced', 'offline', 'error']),
  reason: z.optional(z.enum(['wrong_passphrase', 'unauthorized', 'unreachable', 'not_a_database', 'key_missing', 'server_full', 'server_error', 'no_crypto', 'key_replaced', 'database_missing'])),
  /** Documents moved in the current replication round, and how many it has to move, when known. */
  progress: z.optional(z.object({ done: z.number().check(z.int(), z.gte(0)), total: z.number().check(z.int(), z.gte(0)) })),
  url: z.optional(z.string().check(z.maxLength(2000))),
  username: z.optional(z.string().check(z.maxLength(200))),
  device: DeviceRef,
  /** When the last replication round ended with nothing left to move. */
  lastSyncedAt: z.optional(z.number()),
  /** Present while anything from the server was refused (until the user clears the warning). */
  refused: z.optional(SyncRefusals),
  /**
   * The server's key document is gone, or is not the one this device joined with (never replaced silently); or
   * `restored`: the server had lost its data and this device set it up again with its key (and uploads what it holds).
   */
  keyDocument: z.optional(z.enum(['missing', 'replaced', 'restored'])),
  /** While off: "Turn off sync" kept this device's mirror for a later "Turn on sync" (it can still be deleted). */
  mirrorKept: z.optional(z.boolean()),
});
export type SyncStatus = z.infer<typeof SyncStatus>;

/** The runner of every synced conversation that runs on ANOTHER device (the UI offers "Continue on this device"). */
export const RemoteRunners = z.record(z.string(), DeviceRef);
export type RemoteRunners = z.infer<typeof RemoteRunners>;
