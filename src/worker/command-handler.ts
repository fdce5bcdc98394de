import { parseCommand, type Command } from '../schema/commands';
import { WireError } from '../schema/wire-error';
import type { Proposal } from '../schema/sync';
import { createMcpHandlers } from './mcp/mcp-commands';
import type { CommandHandlerDeps, Handlers } from './commands/command-deps';
import { createConversationHandlers } from './commands/conversation-commands';
import { localModelHandlers } from './commands/local-model-commands';
import { createRequestHandlers } from './commands/request-commands';
import { createRunHandlers } from './commands/run-commands';
import { createSettingsHandlers } from './commands/settings-commands';
import { applyProposal, createSyncHandlers } from './commands/sync-commands';
import { createTransferHandlers } from './commands/transfer-commands';

export type { CommandHandlerDeps } from './commands/command-deps';
export { OPEN_PAGE_SIZE } from './message-pages';

/**
 * Validates a raw command and runs it. A malformed command is refused with `invalid_command` before anything is read
 * or written; every failure is a WireError the UI can show. The handlers live by area in commands/.
 */
export function createCommandHandler(deps: CommandHandlerDeps): ((raw: unknown) => Promise<unknown>) & { applyProposal(proposal: Proposal): Promise<{ status: 'applied' } | { status: 'refused'; reason: string }> } {
  const handlers: Handlers = {
    ...createConversationHandlers(deps),
    ...createTransferHandlers(deps),
    ...createRunHandlers(deps),
    ...createRequestHandlers(deps),
    ...createSettingsHandlers(deps),
    ...createMcpHandlers(deps.mcp),
    ...localModelHandlers,
    ...createSyncHandlers(deps),
  };

  const handle = async (raw: unknown) => {
    const parsed = parseCommand(raw);
    if (!parsed.success) {
      const { field } = parsed;
      throw new WireError({ code: 'invalid_command', reason: 'malformed_command', message: `Malformed command${field ? ` (${field})` : ''}: ${parsed.message}`, ...(field ? { field } : {}) });
    }
    const handler = handlers[parsed.data.type] as (command: Command) => Promise<unknown>;
    return handler(parsed.data);
  };
  return Object.assign(handle, { applyProposal: (proposal: Proposal) => applyProposal(deps, proposal) });
}
