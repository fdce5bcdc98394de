import type { Message } from '../../schema/records';
import type { NewVersion } from '../branches/branch-records';
import type { CommandHandlerDeps, Handlers } from './command-deps';

/**
 * Versions of a message (README, "Versions are branches, never copies"): regenerate, edit, switch and delete. Loaded
 * with the first of them (`command-handler.ts`, `VERSIONS`), as the store's code for versions is.
 */
export function createVersionHandlers(deps: CommandHandlerDeps) {
  const { store } = deps;
  return {
    'message.regenerate': (command) => startVersion(deps, command.conversationId, { kind: 'regenerate', messageId: command.messageId }, command.discardPending),
    'message.edit': (command) => startVersion(deps, command.conversationId, { kind: 'edit', messageId: command.messageId, text: command.text }, command.discardPending),
    'message.selectVersion': (command) => underLock(deps, command.conversationId, () => store.selectVersion(command.conversationId, command.messageId, { discardPending: command.discardPending === true })),
    'message.deleteVersion': (command) => underLock(deps, command.conversationId, () => store.deleteVersion(command.conversationId, command.messageId)),
  } satisfies Partial<Handlers>;
}

/** Changes a conversation's branches while holding its run lock, so no run starts meanwhile in this tab or another. */
async function underLock<T>(deps: CommandHandlerDeps, conversationId: string, change: () => Promise<T>): Promise<T> {
  await deps.runs.recover(conversationId);
  const release = await deps.runs.claim(conversationId);
  try {
    return await change();
  } finally {
    release();
  }
}

/** Stores a new version of a message (regenerated or edited) under the run lock, then runs from it. */
async function startVersion(deps: CommandHandlerDeps, conversationId: string, version: NewVersion, discardPending: boolean | undefined): Promise<{ message: Message }> {
  const { store, runs } = deps;
  await runs.recover(conversationId);
  const release = await runs.claim(conversationId);
  try {
    const { message, run } = await store.addVersion(conversationId, version, { discardPending: discardPending === true });
    void runs.start(conversationId, release, run);
    return { message };
  } catch (error) {
    release();
    throw error;
  }
}
