import { WireError } from '../../schema/wire-error';
import type { SyncGate } from '../sync/sync-gate';
import type { CommandHandlerDeps, Handlers } from './command-deps';

/** Sync's own commands (README, "Sync between your devices"): turning it on and off, this device's name, who runs what, "Continue on this device". */
export function createSyncHandlers(deps: CommandHandlerDeps) {
  const { store } = deps;
  function syncGate(): SyncGate {
    if (!deps.sync) throw new WireError({ code: 'invalid_state', reason: 'sync_off', message: 'Sync is not available here.' });
    return deps.sync;
  }

  return {
    'sync.status': () => syncGate().status(),
    'sync.enable': (command) => syncGate().enable(command),
    'sync.disable': (command) => syncGate().disable(command),
    'sync.setDeviceName': (command) => syncGate().setDeviceName(command.name),
    'sync.clearRefusals': () => syncGate().clearRefusals(),
    'sync.restoreKey': () => syncGate().restoreKey(),
    'sync.rejoin': (command) => syncGate().rejoin(command.passphrase),
    'sync.runners': async () => syncGate().runners(),
    'conversation.takeOver': async (command) => {
      if (!(await store.getConversation(command.conversationId))) throw new WireError({ code: 'not_found', reason: 'conversation_gone', message: 'This conversation no longer exists.' });
      await syncGate().takeOver(command.conversationId);
      return { conversationId: command.conversationId };
    },
  } satisfies Partial<Handlers>;
}
