import { BLOCK_JSON_FIELDS, type ApprovalRequest, type Block, type FreeJsonField, type ToolCallBlock } from '../../schema/messages/blocks';
import { isProse } from '../../schema/messages/prose';
import { closeByStop, isPendingRequest, syncPendingIndex } from '../requests/requests';
import { approvalOf, withApproval } from '../requests/request-ids';
import { repairDeadRun } from '../run/run-repair';
import { IMPORTED_NOT_RUN_TEXT, IMPORTED_QUESTION_TEXT, INTERRUPTED_TOOL_TEXT } from '../tools/tool-outcomes';
import type { Conversation, ConversationExport, Message } from '../../schema/records';
import type { ImportPart, ImportRepair } from '../../schema/protocol';

export type { ImportPart, ImportRepair };

/**
 * Bounds of what an import may hold in a free-form field (a tool call's arguments, a schema, a form's answer): plain
 * JSON, not too deep, not too large. Checked before anything is written: a value nested thousands of levels deep
 * would be stored, and one nested deep enough cannot be cloned into IndexedDB at all.
 */
const IMPORT_LIMITS = { depth: 32, chars: 256_000 } as const;

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Why a file is refused as a whole: which conversation, message and field, and a code the UI words. */
type ImportProblem =
  | { conversation: number; message: number; code: 'duplicate_message_id'; detail: string }
  | { conversation: number; message: number; code: 'unsafe_data'; part: ImportPart; detail: string };

/** Checks a validated export file for what the schema cannot see. Undefined when nothing is wrong. */
export function findImportProblem(file: ConversationExport): ImportProblem | undefined {
  const seenIds = new Set<string>();
  for (const [conversationIndex, entry] of file.conversations.entries()) {
    for (const [messageIndex, message] of entry.messages.entries()) {
      const at = { conversation: conversationIndex, message: messageIndex };
      if (seenIds.has(message.id)) return { ...at, code: 'duplicate_message_id', detail: `the message id "${message.id}" appears twice` };
      seenIds.add(message.id);
      for (const block of message.blocks) {
        for (const [part, label, value] of freeFormFields(block)) {
          const problem = jsonProblem(value);
          if (problem) return { ...at, code: 'unsafe_data', part, detail: `${label}: ${problem}` };
        }
      }
    }
  }
  return undefined;
}

/** Every field of a block that the schema accepts as any JSON, with its part and an English label (BLOCK_JSON_FIELDS). */
function freeFormFields(block: Block): FreeJsonField[] {
  return (BLOCK_JSON_FIELDS[block.type] as (block: Block) => FreeJsonField[])(block);
}

/**
 * Why `value` is not plain JSON within the limits, or undefined. Plain JSON: null, booleans, finite numbers, strings,
 * arrays and plain objects without the keys that reach a prototype.
 */
function jsonProblem(value: unknown): string | undefined {
  let size = 0;
  const visit = (current: unknown, depth: number): string | undefined => {
    if (depth > IMPORT_LIMITS.depth) return `nested deeper than ${IMPORT_LIMITS.depth} levels`;
    if (current === null || typeof current === 'boolean') return undefined;
    if (typeof current === 'number') return Number.isFinite(current) ? undefined : 'holds a number that is not finite';
    if (typeof current === 'string') {
      size += current.length;
      return size > IMPORT_LIMITS.chars ? `larger than ${IMPORT_LIMITS.chars} characters` : undefined;
    }
    if (Array.isArray(current)) {
      for (const item of current) {
        const problem = visit(item, depth + 1);
        if (problem) return problem;
      }
      return undefined;
    }
    if (typeof current === 'object' && Object.getPrototypeOf(current) === Object.prototype) {
      for (const [key, item] of Object.entries(current)) {
        if (UNSAFE_KEYS.has(key)) return `holds the key "${key}"`;
        size += key.length;
        const problem = visit(item, depth + 1);
        if (problem) return problem;
      }
      return undefined;
    }
    return 'holds something that is not JSON';
  };
  return value === undefined ? undefined : visit(value, 0);
}

/**
 * An imported file can show the past; it cannot act, nor ask. Every tool call in it that has not run (queued, approved,
 * running, waiting to be run again, or asking for an Allow whatever status it claims) is closed unrun and loses any
 * approval it carries: approvals are only ever given in this browser. A pending question is closed as dismissed, without
 * the answers or draft the file carried: only what was asked in this browser makes a conversation wait for the user.
 * Returns the message (unchanged when there was nothing to close) and how many calls were closed.
 */
export function disarmImported(message: Message, now: number): { message: Message; calls: number; questions: number } {
  let questions = 0;
  let changed = false;
  const blocks = message.blocks.map((block): Block => {
    if (block.type === 'request' && block.kind === 'question' && block.status === 'pending') {
      changed = true;
      questions += 1;
      const { draft: _draft, response: _response, ...rest } = block;
      return { ...rest, status: 'denied', resolution: 'dismissed', resolvedAt: now, response: { toolResult: IMPORTED_QUESTION_TEXT } };
    }
    if (block.type === 'request' && block.kind === 'elicitation' && block.status === 'pending' && block.response !== undefined) {
      changed = true;
      const { response: _response, ...rest } = block;
      return rest;
    }
    if (isProse(block) && block.clippedFrom !== undefined) {
      // Only the worker's copies for the page carry it; in a file it would make the page say text is missing.
      changed = true;
      const { clippedFrom: _clippedFrom, ...rest } = block;
      return rest;
    }
    return block;
  });
  const closed = closeUnrunCalls(blocks, now);
  return { message: changed || closed.calls > 0 ? { ...message, blocks: closed.blocks } : message, calls: closed.calls, questions };
}

/** Every call that has not run closed unrun, its approval (asked or given, whatever it claims) denied as `imported`. */
function closeUnrunCalls(original: readonly Block[], now: number): { blocks: Block[]; calls: number } {
  let blocks = [...original];
  let calls = 0;
  for (const call of original) {
    if (call.type !== 'tool_call') continue;
    const approval = approvalOf(original, call);
    const asks = approval?.status === 'pending';
    const unrun = asks || call.status === 'pending' || call.status === 'running' || (call.status === 'interrupted' && approval !== undefined && approval.status !== 'denied');
    if (!unrun) continue;
    calls += 1;
    // A call that says it succeeded, failed or was denied while still asking is a forgery: it did not run here either.
    const mayHaveRun = call.status === 'running' || call.status === 'interrupted';
    const { result: _result, binding: _binding, originalArgs: _originalArgs, ...rest } = call;
    const closed: ToolCallBlock = { ...rest, status: mayHaveRun ? 'interrupted' : 'stopped', result: mayHaveRun ? `${INTERRUPTED_TOOL_TEXT} ${IMPORTED_NOT_RUN_TEXT}` : IMPORTED_NOT_RUN_TEXT };
    const imported: ApprovalRequest = {
      type: 'request',
      kind: approval?.kind ?? (mayHaveRun ? 'rerun' : 'permission'),
      requestId: call.toolCallId,
      toolCallId: call.toolCallId,
      status: 'denied',
      payload: { toolName: call.toolName },
      resolution: 'imported',
      resolvedAt: now,
    };
    blocks = withApproval(blocks.map((block) => (block === call ? closed : block)), imported);
  }
  return { blocks, calls };
}

/**
 * Makes an imported conversation's run state agree with its requests: first disarms it (`disarmImported`), so nothing
 * in it waits for the user; an elicitation cannot reach its server any more and is closed as interrupted, and any request
 * still pending after that is closed too. "Awaiting input" therefore becomes idle: a conversation waits only for what was
 * asked in this browser. Returns the repaired records and what changed.
 */
export function repairImportedStates(conversation: Conversation, messages: Message[], now: number): { conversation: Conversation; messages: Message[]; repairs: ImportRepair[] } {
  const repairs: ImportRepair[] = [];
  const say = (code: ImportRepair['code']) => repairs.push({ conversationTitle: conversation.title, code });
  const disarmed = messages.map((message) => {
    const closed = disarmImported(message, now);
    if (closed.calls > 0) repairs.push({ conversationTitle: conversation.title, code: 'tool_call_not_run', count: closed.calls });
    for (let question = 0; question < closed.questions; question += 1) say('extra_pending_question');
    return closed.message;
  });
  const dead = new Map(repairDeadRun(disarmed, now).changed.map((message) => [message.id, message]));
  const repaired = disarmed.map((original) => {
    const message = dead.get(original.id) ?? original;
    // Disarming leaves none; a kind of request added later is closed here until it is disarmed by name.
    if (!message.blocks.some(isPendingRequest)) return syncPendingIndex({ ...message });
    say('extra_pending_question');
    let next = message;
    for (const block of message.blocks) if (isPendingRequest(block)) next = closeByStop(next, block, now);
    return syncPendingIndex({ ...next, updatedAt: message.updatedAt });
  });
  const next: Conversation = { ...conversation };
  if (next.runState === 'awaiting_input') {
    next.runState = 'idle';
    // What was closed already explains why it no longer waits.
    if (repairs.length === 0) say('waiting_without_question');
  }
  return { conversation: next, messages: repaired, repairs };
}
