import { repairImportedStates, type ImportRepair } from '../core/import-checks';
import type { Conversation, ConversationExport, Message } from '../schema/records';
import type { Transaction } from './transaction';

export interface ImportWrite {
  imported: Array<{ conversation: Conversation; messages: Message[] }>;
  skipped: number;
  repairs: ImportRepair[];
}

/**
 * Writes an export's conversations inside `transaction`. One already here (same conversation or message id) is
 * skipped, so importing the same file twice changes nothing. Runs that were live when exported come back interrupted;
 * unknown profiles are dropped. The file was validated before.
 */
export async function writeImport(transaction: Transaction, file: ConversationExport, knownProfileIds: ReadonlySet<string>, now: number): Promise<ImportWrite> {
  const imported: Array<{ conversation: Conversation; messages: Message[] }> = [];
  let skipped = 0;
  const repairs: ImportRepair[] = [];
  for (const entry of file.conversations) {
    const clash = (await transaction.objectStore('conversations').get(entry.conversation.id)) !== undefined;
    const messageClash = await Promise.all(entry.messages.map((message) => transaction.objectStore('messages').getKey(message.id)));
    if (clash || messageClash.some((key) => key !== undefined)) {
      skipped += 1;
      continue;
    }
    const live = entry.messages.map((message) => (message.status === 'streaming' ? { ...message, status: 'interrupted' as const } : message));
    const repaired = repairImportedStates(normalizeImported(entry.conversation, knownProfileIds), live, now);
    repairs.push(...repaired.repairs);
    const { conversation, messages } = repaired;
    await transaction.objectStore('conversations').put(conversation);
    for (const message of messages) await transaction.objectStore('messages').put(message);
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
