import { WireError } from '../../schema/wire-error';
import { ConversationExport, type Fork } from '../../schema/records';
import { ROOT_PARENT } from '../branches';
import { forksProblem } from '../branch-edits';
import { findImportProblem } from './import-checks';
import { attachmentLimit, classifyAttachment } from '../../schema/attachments/attachment-kinds';
import { base64ByteLength } from '../base64';
import { upgradeBlocks } from '../../schema/messages/upgrade-blocks';

/** A file written by an older build, its messages' requests in today's shape (see upgradeBlocks); anything else as it is. */
function upgradeExport(raw: unknown): unknown {
  const conversations = (raw as { conversations?: unknown } | null)?.conversations;
  if (!Array.isArray(conversations)) return raw;
  const upgradeEntry = (entry: unknown) => {
    const messages = (entry as { messages?: unknown } | null)?.messages;
    return Array.isArray(messages) ? { ...(entry as object), messages: messages.map(upgradeBlocks) } : entry;
  };
  return { ...(raw as object), conversations: conversations.map(upgradeEntry) };
}

/**
 * An export file's text, parsed and validated: the whole of an import that needs no storage. Pure and synchronous,
 * so it runs where it is cheap to block: a dedicated worker for a chosen file (seconds for a big one), in place in
 * node tests. Throws a WireError the UI words; nothing has been written when it does.
 */
export function parseImportText(text: string): ConversationExport {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new WireError({ code: 'invalid_command', reason: 'import_not_json', message: 'This file is not JSON. Nothing was imported.', field: 'file' }, { cause: error });
  }
  return validateImport(raw);
}

/** An export file's JSON checked against the schema, its messages' order and ownership, and findImportProblem. */
export function validateImport(raw: unknown): ConversationExport {
  const file = ConversationExport.safeParse(upgradeExport(raw));
  if (!file.success) {
    const issue = file.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    throw new WireError({ code: 'invalid_command', reason: 'import_not_export', ...(field ? { params: { field } } : {}), message: `This is not a Parley export file${field ? ` (${field}: ${issue?.message})` : ''}. Nothing was imported.`, field: `data${field ? `.${field}` : ''}` });
  }
  const problem = findImportProblem(file.data);
  if (problem) {
    const where = `conversation ${problem.conversation + 1}, message ${problem.message + 1}`;
    const params = { conversation: problem.conversation + 1, message: problem.message + 1, ...(problem.code === 'unsafe_data' ? { part: problem.part } : {}) };
    throw new WireError({ code: 'invalid_command', reason: problem.code, params, message: `The export file cannot be imported (${where}: ${problem.detail}). Nothing was imported.`, field: `data.conversations.${problem.conversation}` });
  }
  for (const [index, entry] of file.data.conversations.entries()) {
    if (entry.messages.some((message) => message.conversationId !== entry.conversation.id) || !branchesFit(entry.messages, entry.conversation.forks)) {
      throw new WireError({ code: 'invalid_command', reason: 'import_inconsistent', params: { conversation: index + 1 }, message: `The export file is inconsistent (conversation ${index + 1}: its messages do not belong to it, repeat a position, or do not fit its versions). Nothing was imported.`, field: `data.conversations.${index}` });
    }
  }
  for (const [index, entry] of file.data.conversations.entries()) {
    if (!attachmentsFit(entry)) {
      throw new WireError({ code: 'invalid_command', reason: 'import_attachment_mismatch', params: { conversation: index + 1 }, message: `The export file cannot be imported (conversation ${index + 1}: a file sent with a message is missing, belongs to no message of it, is of a kind Parley does not send, or is not the size its message says). Nothing was imported.`, field: `data.conversations.${index}` });
    }
  }
  return file.data;
}

/**
 * Whether a conversation's files and its messages' AttachmentMeta match one to one: each file belongs to the message
 * that names it, has the size it says (its base64 decodes to that many bytes) within its kind's limit, and its kind is
 * what its name and type make it (an "image" that is HTML is refused, not shown).
 */
function attachmentsFit(entry: ConversationExport['conversations'][number]): boolean {
  const metas = new Map(entry.messages.flatMap((message) => (message.attachments ?? []).map((meta) => [meta.id, { meta, messageId: message.id }] as const)));
  const files = entry.attachments ?? [];
  if (metas.size !== entry.messages.reduce((sum, message) => sum + (message.attachments?.length ?? 0), 0)) return false;
  if (files.length !== metas.size || new Set(files.map((file) => file.id)).size !== files.length) return false;
  return files.every((file) => {
    const owner = metas.get(file.id);
    if (!owner || owner.messageId !== file.messageId || file.base64.length % 4 !== 0) return false;
    const { meta } = owner;
    return base64ByteLength(file.base64) === meta.size && meta.size <= attachmentLimit(meta.kind) && classifyAttachment(meta.name, meta.mimeType)?.kind === meta.kind;
  });
}

/**
 * Whether a conversation's messages form the tree its forks describe: a message's parent is one position before it in
 * the same conversation, a position holds several messages only as versions, and every fork names real versions.
 */
function branchesFit(messages: ConversationExport['conversations'][number]['messages'], forks: Fork[] | undefined): boolean {
  const byId = new Map(messages.map((message) => [message.id, message]));
  for (const message of messages) {
    if (message.parentId === undefined) continue;
    if (message.parentId === ROOT_PARENT ? message.seq !== 0 : byId.get(message.parentId)?.seq !== message.seq - 1) return false;
  }
  if (!forks?.length) return new Set(messages.map((message) => message.seq)).size === messages.length;
  return forksProblem(messages, forks) === undefined;
}
