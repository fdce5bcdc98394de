/// <reference lib="webworker" />
// A short-lived worker started by the agent worker for one import: reading, parsing and validating a big file takes
// seconds of one thread, and the agent worker must keep answering the page's pings and commands meanwhile.
import { parseImportText } from '../../core/transfer/import-validation';
import { WireError, type SerializedError } from '../../schema/wire-error';
import type { ConversationExport } from '../../schema/records';

declare const self: DedicatedWorkerGlobalScope;

/** What the agent worker posts: the chosen file. */
export interface ImportParserRequest {
  file: Blob;
}

/**
 * What this worker posts back: the validated file's conversations in batches, then `done` with the rest of the file;
 * or `refused` alone. Batches, because the receiving thread decodes each message in one go (over a second for a
 * 130 MB file in one message); a batch is a few milliseconds, so pings are answered between them.
 */
export type ImportParserReply =
  | { kind: 'conversations'; entries: ConversationExport['conversations'] }
  | { kind: 'done'; file: Omit<ConversationExport, 'conversations'> }
  | { kind: 'refused'; error: SerializedError };

/** About this many messages per posted batch. */
const BATCH_MESSAGES = 2_000;

const post = (reply: ImportParserReply) => self.postMessage(reply);

self.addEventListener('message', (event: MessageEvent<ImportParserRequest>) => void parse(event.data.file));

async function parse(blob: Blob): Promise<void> {
  let file: ConversationExport;
  try {
    file = parseImportText(await blob.text());
  } catch (error) {
    const wire = error instanceof WireError ? error : new WireError({ code: 'internal', message: `The import file could not be read: ${error instanceof Error ? error.message : String(error)}` }, { cause: error });
    return post({ kind: 'refused', error: wire.toJSON() });
  }
  const { conversations, ...rest } = file;
  let batch: ConversationExport['conversations'] = [];
  let messages = 0;
  for (const entry of conversations) {
    batch.push(entry);
    messages += entry.messages.length;
    if (messages >= BATCH_MESSAGES) {
      post({ kind: 'conversations', entries: batch });
      batch = [];
      messages = 0;
    }
  }
  if (batch.length > 0) post({ kind: 'conversations', entries: batch });
  post({ kind: 'done', file: rest });
}
