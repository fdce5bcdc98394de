import { COMMANDS, parseCommand, type Command, type CommandType } from '../schema/commands';
import type { DeviceRef } from '../schema/sync/device';
import { WireError } from '../schema/wire-error';
import type { Proposal } from '../schema/sync/sync';
import { createMcpHandlers } from './mcp/mcp-commands';
import { ProposalReplayed } from './sync/documents/applied-proposals';
import type { CommandContext, CommandHandlerDeps, Handlers, Proposers } from './commands/command-deps';
import { createConversationHandlers } from './commands/conversation-commands';
import { createRequestHandlers, createRequestProposers } from './commands/request-commands';
import { createRunHandlers, createRunProposers } from './commands/run-commands';
import { runsElsewhere } from './commands/runs-elsewhere';
import { createSyncHandlers } from './commands/sync-commands';

export type { CommandHandlerDeps } from './commands/command-deps';
export { OPEN_PAGE_SIZE } from './store/message-pages';

type ProposalOutcome = { status: 'applied' } | { status: 'refused'; reason: string };

/** Applied before: its nonce is recorded here (the server wrote an old revision of it back). */
const REPLAYED: ProposalOutcome = { status: 'refused', reason: 'replayed' };

/** Commands whose compare-and-set records a proposal's nonce in its own transaction (CommandContext.claim). */
const CLAIMED_IN_APPLY: ReadonlySet<CommandType> = new Set(['request.resolve']);

/**
 * The one way in (docs/architecture.md, "Commands and their scope"): validates a raw command against its declaration,
 * decides where it runs by its scope — here, or proposed to the device that runs the conversation, or refused — and runs
 * its handler. A malformed command is refused with `invalid_command` before anything is read or written; every failure
 * is a WireError the UI can show. Another device's proposal comes in through `applyProposal` and takes the same path.
 */
/** The dispatcher: call it with a raw command from the page; `applyProposal` takes another device's. */
export type CommandHandle = ((raw: unknown) => Promise<unknown>) & { applyProposal(proposal: Proposal): Promise<ProposalOutcome> };

export function createCommandHandler(deps: CommandHandlerDeps): CommandHandle {
  const handlers: Handlers = {
    ...createConversationHandlers(deps),
    ...lazyHandlers(TRANSFERS, async () => (await import('./commands/transfer-commands')).createTransferHandlers(deps)),
    ...createRunHandlers(deps),
    ...lazyHandlers(VERSIONS, async () => (await import('./commands/version-commands')).createVersionHandlers(deps)),
    ...createRequestHandlers(deps),
    ...lazyHandlers(SETTINGS_CHANGES, async () => (await import('./commands/settings-commands')).createSettingsHandlers(deps)),
    'settings.get': () => deps.settings.getSettings(),
    'profiles.list': () => deps.settings.listProfiles(),
    ...createMcpHandlers(deps.mcp),
    ...lazyHandlers(LOCAL_MODEL, async () => (await import('./commands/local-model-commands')).localModelHandlers),
    ...createSyncHandlers(deps),
  };
  const proposers: Proposers = { ...createRunProposers(deps), ...createRequestProposers(deps) };

  const run = (command: Command, context: CommandContext) => (handlers[command.type] as (command: Command, context: CommandContext) => Promise<unknown>)(command, context);

  /** Sends a `conversation` command to the device that runs it, as the very command, with what this device showed pinned. */
  const propose = async (command: Command & { conversationId: string }, runner: DeviceRef) => {
    const proposer = proposers[command.type as keyof Proposers] as ((command: Command, runner: DeviceRef) => Promise<{ command: Command; reply: object }>) | undefined;
    // Without a proposer the command travels as given, and its caller learns where it went (and for which conversation).
    const pinned = proposer ? await proposer(command, runner) : { command, reply: { conversationId: command.conversationId } };
    const proposedTo = await deps.sync!.propose(command.conversationId, pinned.command);
    return { ...pinned.reply, proposedTo };
  };

  const handle = async (raw: unknown) => {
    const command = await parsed(raw);
    const scope = COMMANDS[command.type].scope;
    if (scope !== 'device') {
      const { conversationId } = command as Command & { conversationId: string };
      const runner = deps.sync?.runnerElsewhere(conversationId);
      if (runner && scope === 'runner') throw runsElsewhere(runner);
      if (runner) return propose(command as Command & { conversationId: string }, runner);
    }
    return run(command, { device: deps.sync?.device(), proposed: false });
  };

  /**
   * Another device's proposal for a conversation this device runs, through the same handler and compare-and-set as a
   * click, applied at most once: its nonce is recorded as applied in the compare-and-set's own transaction where the
   * handler takes it (`CLAIMED_IN_APPLY`), else in one before; a refused proposal's after, so it is never applied later.
   * A nonce recorded before is refused with `replayed` (no outcome is written for it).
   */
  const applyProposal = async (proposal: Proposal): Promise<ProposalOutcome> => {
    let claimed = false;
    try {
      const command = await parsed(proposal.command);
      const { conversationId } = command as { conversationId?: unknown };
      if (!isProposable(command.type) || conversationId !== proposal.conversationId) throw new WireError({ code: 'invalid_command', reason: 'not_proposable', message: `${command.type} cannot be proposed for this conversation.` });
      const runner = deps.sync?.runnerElsewhere(proposal.conversationId);
      if (runner) throw runsElsewhere(runner);
      const inApply = proposal.nonce !== undefined && CLAIMED_IN_APPLY.has(command.type);
      if (proposal.nonce !== undefined && !inApply) {
        if (!(await deps.store.claimProposal(proposal.nonce))) return REPLAYED;
        claimed = true;
      }
      await run(command, { device: proposal.from, proposed: true, ...(inApply ? { claim: proposal.nonce } : {}) });
      return { status: 'applied' };
    } catch (error) {
      if (error instanceof ProposalReplayed) return REPLAYED;
      const reason = error instanceof WireError ? (error.reason ?? error.code) : 'failed';
      if (proposal.nonce !== undefined && !claimed && !(await deps.store.claimProposal(proposal.nonce).catch(() => true))) return REPLAYED;
      return { status: 'refused', reason };
    }
  };
  return Object.assign(handle, { applyProposal });
}

/** Export and import: their code (with the settings backup's) loads with the first of them, not with the worker. */
const TRANSFERS = ['conversation.export', 'conversation.import'] as const;

/** Versions of a message: their handlers load with the first of them, as the store's code for versions does. */
const VERSIONS = ['message.regenerate', 'message.edit', 'message.selectVersion', 'message.deleteVersion'] as const;

/** Changes to the settings and profiles: their code (checks, writes) loads with the first of them, as Settings' inputs do. */
const SETTINGS_CHANGES = ['settings.update', 'settings.restoreScript', 'profiles.save', 'profiles.delete', 'profiles.test'] as const;

/** The in-browser model's storage (Settings): its handlers load with the first of them, and the code they call after them. */
const LOCAL_MODEL = (Object.keys(COMMANDS) as CommandType[]).filter((type): type is Extract<CommandType, `localModel.${string}`> => type.startsWith('localModel.'));

/** Handlers of `types` whose code loads with the first of them (again after a failed load). */
function lazyHandlers<T extends CommandType>(types: readonly T[], load: () => Promise<Pick<Handlers, T>>): Pick<Handlers, T> {
  let loading: Promise<Pick<Handlers, T>> | undefined;
  const loaded = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  const handler = (type: T) => async (command: Command, context: CommandContext) => ((await loaded())[type] as (command: Command, context: CommandContext) => Promise<unknown>)(command, context);
  return Object.fromEntries(types.map((type) => [type, handler(type)])) as unknown as Pick<Handlers, T>;
}

async function parsed(raw: unknown): Promise<Command> {
  const result = await parseCommand(raw);
  if (result.success) return result.data;
  const { field } = result;
  throw new WireError({ code: 'invalid_command', reason: 'malformed_command', message: `Malformed command${field ? ` (${field})` : ''}: ${result.message}`, ...(field ? { field } : {}) });
}

function isProposable(type: CommandType): boolean {
  return COMMANDS[type].scope === 'conversation';
}
