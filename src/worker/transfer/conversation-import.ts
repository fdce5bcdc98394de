import { repairImportedStates, type ImportRepair } from '../../core/transfer/import-checks';
import { WireError } from '../../schema/wire-error';
import type { Conversation, ConversationExport, Message } from '../../schema/records';
import type { ParleyDatabase } from '../store/database';
import { inTransaction, type Transaction } from '../store/transaction';
import { fromExported } from '../attachments/attachment-files';

/**
 * One import transaction holds whole conversations up to about this many messages: a big file is written in several
 * transactions with a pause between them, so the worker keeps answering (the page's pings, other commands).
 */
export const IMPORT_CHUNK_MESSAGES = 2_000;

interface ImportWrite {
  imported: Array<{ conversation: Conversation; messages: Message[] }>;
  skipped: number;
  repairs: ImportRepair[];
}

/**
 * Writes an export's conversations inside `transaction`. One already here (same conversation or message id) is
 * skipped, so importing the same file twice changes nothing. Runs that were live when exported come back interrupted;
 * unknown profiles are dropped. The file was validated before.
 */
async function writeImport(transaction: Transaction, file: ConversationExport, knownProfileIds: ReadonlySet<string>, now: number): Promise<ImportWrite> {
  const imported: Array<{ conversation: Conversation; messages: Message[] }> = [];
  let skipped = 0;
  const repairs: ImportRepair[] = [];
  for (const entry of file.conversations) {
    const clash = (await transaction.objectStore('conversations').get(entry.conversation.id)) !== undefined;
    const messageClash = await Promise.all(entry.messages.map((message) => transaction.objectStore('messages').getKey(message.id)));
    const fileClash = await Promise.all((entry.attachments ?? []).map((file) => transaction.objectStore('attachments').getKey(file.id)));
    if (clash || [...messageClash, ...fileClash].some((key) => key !== undefined)) {
      skipped += 1;
      continue;
    }
    const live = entry.messages.map((message) => (message.status === 'streaming' ? { ...message, status: 'interrupted' as const } : message));
    const repaired = repairImportedStates(normalizeImported(entry.conversation, knownProfileIds), live, now);
    repairs.push(...repaired.repairs);
    const { conversation, messages } = repaired;
    await transaction.objectStore('conversations').put(conversation);
    for (const message of messages) await transaction.objectStore('messages').put(message);
    // Validation matched every file to a message's AttachmentMeta (id, size); the type comes from there.
    const types = new Map(messages.flatMap((message) => (message.attachments ?? []).map((meta) => [meta.id, meta.mimeType] as const)));
    for (const file of entry.attachments ?? []) await transaction.objectStore('attachments').put(fromExported(file, conversation.id, types.get(file.id) ?? ''));
    imported.push({ conversation, messages });
  }
  return { imported, skipped, repairs };
}

function normalizeImported(conversation: Conversation, knownProfileIds: ReadonlySet<string>): Conversation {
  const next: Conversation = { ...conversation };
  // Nothing runs for it here: a run that was live in the exporting browser can be continued.
  if (next.runState === 'running' || next.runState === 'waiting_network') next.runState = 'interrupted';
  if (next.profileId !== undefined && !knownProfileIds.has(next.profileId)) delete next.profileId;
  return next;
}

/**
 * Writes an export in chunks of whole conversations, one transaction each (see writeImport), yielding between them.
 * A conversation is never half-written. When a chunk fails, the chunks before it stay imported: the error says how
 * many conversations (`params.imported` of `params.total`) were, how many of those chunks' were already here
 * (`params.skipped`) and what was repaired in them (`repairs`); `onCommitted` has been told about them.
 */
export async function importInChunks(database: ParleyDatabase, file: ConversationExport, knownProfileIds: ReadonlySet<string>, now: number, onCommitted: (conversations: Conversation[]) => void): Promise<ImportWrite> {
  const result: ImportWrite = { imported: [], skipped: 0, repairs: [] };
  try {
    for (const chunk of chunksOf(file.conversations)) {
      const written = await inTransaction(database, ['conversations', 'messages', 'attachments'], (transaction) => writeImport(transaction, { ...file, conversations: chunk }, knownProfileIds, now));
      result.imported.push(...written.imported);
      result.skipped += written.skipped;
      result.repairs.push(...written.repairs);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  } catch (error) {
    if (result.imported.length === 0 || !(error instanceof WireError)) throw error;
    const total = file.conversations.length;
    const { imported, skipped, repairs } = { ...result, imported: result.imported.length };
    const message = `${imported} of ${total} conversations were imported before this failure (${skipped} were already here); the rest were not. ${error.message}`;
    throw new WireError({ ...error.toJSON(), params: { ...error.params, imported, total, skipped }, repairs, message }, { cause: error });
  } finally {
    // One notice for everything written, also when a later chunk failed.
    if (result.imported.length > 0) onCommitted(result.imported.map((entry) => entry.conversation));
  }
  return result;
}

function* chunksOf(entries: ConversationExport['conversations']): Generator<ConversationExport['conversations']> {
  let chunk: ConversationExport['conversations'] = [];
  let messages = 0;
  for (const entry of entries) {
    if (chunk.length > 0 && messages + entry.messages.length > IMPORT_CHUNK_MESSAGES) {
      yield chunk;
      chunk = [];
      messages = 0;
    }
    chunk.push(entry);
    messages += entry.messages.length;
  }
  if (chunk.length > 0) yield chunk;
}
