import { parseImportText } from '../../core/transfer/import-validation';
import type { ConversationExport } from '../../schema/records';
import { WireError } from '../../schema/wire-error';
import type { ImportParserReply, ImportParserRequest } from './import-parser';

/**
 * A chosen export file, read, parsed and validated in a dedicated worker (import-parser.ts) that is terminated
 * afterwards: this worker stays free to answer pings and commands while a file of hundreds of megabytes is parsed.
 * Rejects with the parser's WireError (the file is refused) or an internal one (the parser could not run).
 */
export async function readImportInWorker(file: Blob): Promise<ConversationExport> {
  // Nested workers are missing in a few old browsers: block here rather than fail.
  if (typeof Worker === 'undefined') return parseImportText(await file.text());
  const parser = new Worker(new URL('./import-parser.ts', import.meta.url), { type: 'module', name: 'import-parser' });
  try {
    return await new Promise<ConversationExport>((resolve, reject) => {
      const failed = (detail: string) => reject(new WireError({ code: 'internal', message: `The import file could not be read (${detail}). Nothing was imported.` }));
      const conversations: ConversationExport['conversations'] = [];
      parser.addEventListener('message', (event: MessageEvent<ImportParserReply>) => {
        const reply = event.data;
        if (reply.kind === 'conversations') conversations.push(...reply.entries);
        else if (reply.kind === 'done') resolve({ ...reply.file, conversations });
        else reject(new WireError(reply.error));
      });
      parser.addEventListener('messageerror', () => failed('its contents could not be passed on'));
      parser.addEventListener('error', (event) => {
        event.preventDefault();
        failed(event.message || 'the import worker failed');
      });
      parser.postMessage({ file } satisfies ImportParserRequest);
    });
  } finally {
    parser.terminate();
  }
}
