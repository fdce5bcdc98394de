import { alreadyResolvedText, findRequest, isPendingRequest, resolvedOutcomeOf, resolveRequest, withRequest, type RequestBlock, type RequestResolution, type ResolveContext } from '../../core/requests/requests';
import { needsLiveRun } from '../../core/requests/request-kinds';
import type { RunSnapshot } from '../../core/run/store';
import { beginCall } from '../../core/tools/tool-calls';
import type { Tool } from '../../core/tools/tool';
import { WireError } from '../../schema/wire-error';
import type { PendingRequest } from '../../schema/protocol';
import type { QuestionDraft } from '../../schema/forms/question';
import type { Conversation, Message } from '../../schema/records';
import { afterWrite, messagesIn, notFound, transactRun, type StoreContext } from '../store/store-context';
import { commitWith, inTransaction, type Transaction } from '../store/transaction';
import { listPendingRequests } from './pending-requests';
import { claimIn, ProposalReplayed } from '../sync/documents/applied-proposals';

import type { RequestTarget } from '../../schema/protocol';

/**
 * Pending requests (questions, approvals, elicitations) over IndexedDB: listed, read, drafted, and resolved exactly once.
 * Every method is one transaction that awaits nothing but IndexedDB requests.
 */
export class RequestRecords {
  constructor(private readonly context: StoreContext) {}

  /** Every pending request of every conversation (see pending-requests). */
  listPendingRequests(): Promise<PendingRequest[]> {
    return listPendingRequests(this.context.database);
  }

  /**
   * Resolves a pending request exactly once (compare-and-set): a second resolution writes nothing and fails with
   * `already_resolved` carrying the first outcome. Params (answers, edited arguments, a form's content) are checked
   * against what the request asked for before anything is written. `run` is the conversation as it now stands, read in
   * the same transaction, for the run that goes on (the caller holds its lock, so nobody else changes it meanwhile).
   * With `noLiveRun`, an elicitation (which only a live run can receive) is refused with `elicitation_dead`, unwritten.
   * With `tools` (the caller holds the run lock and starts the run from `run`), an Allow whose call runs next stores the
   * call as `running` in this same transaction (see beginCall): a crash after it leaves the call "may or may not have
   * run", as a crash after the loop's own mark does, and the run calls the tool without another commit.
   * With `claim` (another device's proposal), its nonce is recorded as applied in this same transaction (see claimIn),
   * and one recorded before is refused with `ProposalReplayed`, unwritten.
   */
  async resolveRequest(
    target: RequestTarget,
    resolution: RequestResolution,
    checks: Omit<ResolveContext, 'now'>,
    options: { noLiveRun?: boolean; tools?: readonly Tool[]; claim?: string } = {},
  ): Promise<{ conversation: Conversation; message: Message; block: RequestBlock; run: RunSnapshot }> {
    const now = this.context.now();
    const change = await transactRun(this.context, async (transaction) => {
      const [pending, messages, claimed] = await Promise.all([
        this.findPending(transaction, target),
        messagesIn(transaction, target.conversationId),
        options.claim === undefined || claimIn(transaction, options.claim, now),
      ]);
      if (!claimed) throw new ProposalReplayed();
      const { conversation, message, block } = pending;
      if (options.noLiveRun && needsLiveRun(block)) throw elicitationDead();
      const result = resolveRequest(message, block, resolution, { ...checks, now });
      if (!result.ok) throw new WireError({ code: 'invalid_answer', reason: result.reason, params: result.params, message: result.message, field: result.field });
      const resolved = withRequest(message, result.change, now);
      const call = result.change.call;
      const runsFirst = options.tools && call?.status === 'pending' && result.runState === 'running' && messages.at(-1)?.id === message.id;
      const begun = runsFirst ? beginCall(resolved, call.toolCallId, options.tools!, now) : undefined;
      const nextMessage = begun ?? resolved;
      const nextConversation: Conversation = { ...conversation, runState: result.runState, updatedAt: now };
      // The compare-and-set's commit is on the way to the tool's request: asked for with the writes, not after them.
      await commitWith(transaction, [transaction.objectStore('messages').put(nextMessage), transaction.objectStore('conversations').put(nextConversation)]);
      const history = afterWrite(messages, [nextMessage]);
      return { conversation: nextConversation, messages: [nextMessage], block: result.change.request, run: { conversation: nextConversation, history, ...(begun ? { begunCall: call!.toolCallId } : {}) } };
    });
    this.context.listener.committed({ conversation: change.conversation, messages: change.messages });
    return { conversation: change.conversation, message: change.messages[0]!, block: change.block, run: change.run };
  }

  /** The request as stored, if any (a resolution command reads what kind of request it is first). */
  async getRequest(target: RequestTarget): Promise<RequestBlock | undefined> {
    const message = await this.context.database.get('messages', target.messageId);
    return message?.conversationId === target.conversationId ? findRequest(message, target.requestId) : undefined;
  }

  /** Saves a half-filled form on its pending block. */
  async saveDraft(target: RequestTarget, draft: QuestionDraft): Promise<Message> {
    const message = await inTransaction(this.context.database, ['conversations', 'messages'], async (transaction) => {
      const { message, block } = await this.findPending(transaction, target);
      if (block.kind !== 'question') throw new WireError({ code: 'invalid_state', reason: 'draft_not_question', message: 'Only a question keeps a draft.' });
      const next = withRequest(message, { request: { ...block, draft } }, message.updatedAt);
      await transaction.objectStore('messages').put(next);
      return next;
    });
    this.context.listener.committed({ messages: [message] });
    return message;
  }

  private async findPending(transaction: Transaction, target: RequestTarget) {
    // Both read at once: each awaited request is a round trip to the database, and this is on the answer's path.
    const [conversation, message] = await Promise.all([transaction.objectStore('conversations').get(target.conversationId), transaction.objectStore('messages').get(target.messageId)]);
    if (!conversation) throw notFound('conversation', target.conversationId);
    if (!message || message.conversationId !== target.conversationId) throw notFound('message', target.messageId);
    const block = findRequest(message, target.requestId);
    if (!block) throw notFound('request', target.requestId);
    if (!isPendingRequest(block)) {
      throw new WireError({
        code: 'already_resolved',
        message: alreadyResolvedText(block),
        outcome: resolvedOutcomeOf(block),
      });
    }
    return { conversation, message, block };
  }
}

/** An elicitation whose run is gone: its server can no longer receive an answer. */
export function elicitationDead(): WireError {
  return new WireError({ code: 'invalid_state', reason: 'elicitation_dead', message: 'The tool that asked this has stopped (the app was closed or reloaded while it waited), so it can no longer receive an answer. It is marked interrupted.' });
}
