import { WireError } from '../../schema/wire-error';
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
    'message.edit': async (command) => {
      await filesHereToCopy(deps, command.messageId);
      return startVersion(deps, command.conversationId, { kind: 'edit', messageId: command.messageId, text: command.text }, command.discardPending);
    },
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

/**
 * An edited message keeps its files as copies (branch-records.ts): a file another device sent that has not reached this
 * one cannot be copied, and its copy would never come, so the edit is refused in words until it has (one whose chunks
 * are all in the mirror is put together first). A file gone with sync off stays gone in the new version, as before.
 */
async function filesHereToCopy(deps: CommandHandlerDeps, messageId: string): Promise<void> {
  for (const meta of (await deps.store.getMessage(messageId))?.attachments ?? []) {
    if ((await deps.store.readAttachment(meta.id)) || (await deps.sync?.fetchAttachment(meta.id)) !== false) continue;
    throw new WireError({ code: 'invalid_state', reason: 'attachment_syncing', message: 'This file has not reached this device yet: it is still syncing.' });
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
