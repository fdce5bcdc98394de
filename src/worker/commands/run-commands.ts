import type { DeviceRef } from '../../schema/sync/device';
import { profileAcceptsImages } from '../../schema/provider-kinds';
import type { Message } from '../../schema/records';
import { WireError } from '../../schema/wire-error';
import type { PreparedAttachment } from '../attachments/attachment-records';
import type { CommandHandlerDeps, Handlers, Proposers } from './command-deps';
import { runsElsewhere } from './runs-elsewhere';

/** What starts and stops a conversation's run: messages, Stop and Continue (versions: version-commands.ts). */
export function createRunHandlers(deps: CommandHandlerDeps) {
  const { store, settings, runs } = deps;
  return {
    'message.send': async (command, context) => {
      const inputs = command.attachments ?? [];
      if (command.text === '' && inputs.length === 0) throw emptyMessage();
      const { defaultProfileId } = await settings.getSettings();
      // Files are checked, and the quota, before the run lock and the transaction (reading a Blob is not an IndexedDB request).
      const files = inputs.length === 0 ? [] : await (await import('../attachments/attachment-files')).prepareAttachments(inputs, { acceptsImages: await acceptsImages(deps, command.conversationId, defaultProfileId), newId: deps.newId ?? (() => crypto.randomUUID()), ...(deps.estimateStorage ? { estimate: deps.estimateStorage } : {}) });
      return { message: await sendMessage(deps, command.conversationId, command.text, { files, ...(command.messageId ? { messageId: command.messageId } : {}), ...(context.device ? { device: context.device } : {}) }) };
    },
    'attachment.read': async (command) => {
      let stored = await store.readAttachment(command.attachmentId);
      // Not here: another device sent it, and its chunks may all be in the mirror already, or still on their way.
      const fetched = stored ? true : await deps.sync?.fetchAttachment(command.attachmentId);
      if (!stored && fetched) stored = await store.readAttachment(command.attachmentId);
      if (!stored && fetched === false) throw new WireError({ code: 'not_found', reason: 'attachment_syncing', message: 'This file has not reached this device yet: it is still syncing.' });
      if (!stored) throw new WireError({ code: 'not_found', reason: 'attachment_gone', message: 'This file is no longer stored.' });
      return { blob: stored.blob, mimeType: stored.blob.type };
    },
    'run.stop': (command) => stopHere(deps, command.conversationId),
    'run.continue': async (command) => {
      await runs.recover(command.conversationId);
      const release = await runs.claim(command.conversationId);
      const continued = await store.transition(command.conversationId, ['interrupted', 'waiting_network', 'error'], 'running').catch((error: unknown) => {
        release();
        throw error;
      });
      if (!continued) {
        release();
        throw new WireError({ code: 'invalid_state', reason: 'nothing_to_continue', message: 'There is nothing to continue in this conversation.' });
      }
      void runs.start(command.conversationId, release);
      return { conversationId: command.conversationId };
    },
    'network.online': async () => {
      await runs.resumeWaiting();
      return { resumed: true as const };
    },
  } satisfies Partial<Handlers>;
}

/** From a device that does not run the conversation: a message travels with its id; its files cannot (their bytes stay here). */
export function createRunProposers(deps: CommandHandlerDeps) {
  return {
    'message.send': async (command, runner) => {
      if ((command.attachments ?? []).length > 0) throw runsElsewhere(runner);
      if (command.text === '') throw emptyMessage();
      return { command: { ...command, messageId: command.messageId ?? deps.newId?.() ?? crypto.randomUUID() }, reply: {} };
    },
  } satisfies Proposers;
}

/** Sends the user's message here and starts the run; `device` is where it was written, while sync is on. */
async function sendMessage(deps: CommandHandlerDeps, conversationId: string, text: string, options: { messageId?: string; device?: DeviceRef; files?: readonly PreparedAttachment[] } = {}): Promise<Message> {
  const { store, settings, runs } = deps;
  await runs.recover(conversationId);
  const release = await runs.claim(conversationId);
  try {
    const { files = [], ...rest } = options;
    const { message, run } = await store.appendUserMessage(conversationId, text, (await settings.getSettings()).defaultProfileId, files, rest);
    void runs.start(conversationId, release, run);
    return message;
  } catch (error) {
    release();
    throw error;
  }
}

async function stopHere(deps: CommandHandlerDeps, conversationId: string): Promise<{ conversationId: string }> {
  const { store, runs } = deps;
  if (runs.stop(conversationId)) return { conversationId };
  const conversation = await store.getConversation(conversationId);
  if (!conversation) throw new WireError({ code: 'not_found', reason: 'conversation_gone', message: 'This conversation no longer exists.' });
  if (conversation.runState === 'running') {
    deps.requestPeerStop(conversationId); // the tab running it writes the stopped state
    await runs.recover(conversationId); // nobody is: repair it (it becomes interrupted, then stopped below)
  }
  await store.stopRun(conversationId);
  deps.emit({ type: 'run-notice', conversationId, notice: null });
  return { conversationId };
}

function emptyMessage(): WireError {
  return new WireError({ code: 'invalid_command', reason: 'message_empty', message: 'Write a message or attach a file first.', field: 'text' });
}

/** Whether the model the conversation talks to takes images (a deleted profile: the send fails later in words). */
async function acceptsImages(deps: CommandHandlerDeps, conversationId: string, defaultProfileId: string): Promise<boolean> {
  const conversation = await deps.store.getConversation(conversationId);
  const profile = conversation ? await deps.profileOf?.(conversation) : await deps.settings.getProfile(defaultProfileId);
  return profile ? profileAcceptsImages(profile) : true;
}
