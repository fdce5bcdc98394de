import type { Conversation, ConversationExport, Message } from '../../schema/records';
import { addSettings, exportSettings, offerOf, offersAnything } from '../transfer/settings-backup';
import type { CommandHandlerDeps, Handlers } from './command-deps';

/** Export and import of conversations (with settings, never keys): what leaves the device, and what comes in. */
export function createTransferHandlers(deps: CommandHandlerDeps) {
  const { store, settings } = deps;
  return {
    'conversation.export': async () => {
      const conversations = (await store.exportAll()).map(withoutProviderDetails);
      // Keys and tokens are never part of an export, nor tool permissions; nor the texts providers sent back with errors.
      return { format: 'parley-export', version: 1, exportedAt: deps.now(), conversations, settings: await exportSettings(settings, deps.mcp) } satisfies ConversationExport;
    },
    'conversation.import': async (command) => {
      // A chosen file is parsed and validated away from this worker's thread (see HostEnvironment.readImport).
      // The import's validators load when an import is made, not with the worker.
      const file = command.file ? await (deps.readImport ?? readImportInPlace)(command.file) : (await import('../../core/transfer/import-validation')).validateImport(command.data);
      const choice = command.settings ?? 'skip';
      if (choice === 'ask') {
        const offered = await offerOf(file.settings, settings, deps.mcp);
        if (offersAnything(offered)) return { imported: 0, skipped: 0, repairs: [], settingsOffered: offered };
      }
      // Settings first: imported conversations keep the profiles they name.
      const settingsAdded = choice === 'add' && file.settings ? await addSettings(file.settings, settings, deps.mcp) : undefined;
      if (settingsAdded?.profiles.length) deps.emit({ type: 'profiles-changed', profiles: await settings.listProfiles() });
      if (settingsAdded?.script) deps.emit({ type: 'settings-changed', settings: await settings.getSettings() });
      const profiles = new Set((await settings.listProfiles()).map((profile) => profile.id));
      const { imported, skipped, repairs } = await store.importConversations(file, profiles);
      return { imported: imported.length, skipped, repairs, ...(settingsAdded ? { settingsAdded } : {}) };
    },
  } satisfies Partial<Handlers>;
}

/** A chosen file parsed on this thread: for node tests, which have no Worker. */
async function readImportInPlace(file: Blob): Promise<ConversationExport> {
  return (await import('../../core/transfer/import-validation')).parseImportText(await file.text());
}

/** Error codes whose message quotes a model provider's answer (which may echo a key, a URL, an account). */
const PROVIDER_ERROR_CODES = new Set(['auth', 'not_found', 'rate_limited', 'server', 'network', 'cors', 'bad_stream', 'bad_request']);

function providerErrorText(code: string): string {
  return `The model provider reported an error (${code}); its details are not part of an export.`;
}

/** An exported conversation with provider error texts replaced by their code. */
function withoutProviderDetails<Entry extends { conversation: Conversation; messages: Message[] }>(entry: Entry): Entry {
  const conversation = entry.conversation.runError && PROVIDER_ERROR_CODES.has(entry.conversation.runError.code)
    ? { ...entry.conversation, runError: { code: entry.conversation.runError.code, message: providerErrorText(entry.conversation.runError.code) } } // no detail: it holds the server's words
    : entry.conversation;
  const messages = entry.messages.map((message) =>
    message.blocks.some((block) => block.type === 'error' && PROVIDER_ERROR_CODES.has(block.code))
      ? { ...message, blocks: message.blocks.map((block) => (block.type === 'error' && PROVIDER_ERROR_CODES.has(block.code) ? { type: 'error' as const, code: block.code, message: providerErrorText(block.code) } : block)) }
      : message,
  );
  // The rest of the entry (its files) as it was.
  return { ...entry, conversation, messages };
}
