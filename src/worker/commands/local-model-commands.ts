import type { CommandType } from '../../schema/commands';
import type { Handlers } from './command-deps';

/** In-browser model storage; its code loads on first use, so the worker's start does not wait for it. */
export const localModelHandlers: Pick<Handlers, Extract<CommandType, `localModel.${string}`>> = {
  'localModel.status': async (command) => (await localModelCommands()).run(() => localModelStore().then((store) => store.getStatus(command.source))),
  'localModel.download': async (command) => (await localModelCommands()).run(() => localModelStore().then((store) => store.startDownload(command.source))),
  'localModel.cancel': async (command) => (await localModelCommands()).run(() => localModelStore().then((store) => store.cancelDownload(command.source))),
  'localModel.delete': async (command) =>
    (await localModelCommands()).run(() => localModelStore().then(async (store) => (await store.removeModel(command.source), store.getStatus(command.source)))),
  'localModel.import': async (command) => (await localModelCommands()).run(() => localModelStore().then((store) => store.importFiles(command.name, command.files))),
  'localModel.setOptions': async (command) =>
    (await localModelCommands()).run(() => localModelStore().then((store) => store.setOptions(command.source, command))),
  'localModel.storedBytes': async () => (await localModelCommands()).run(() => localModelStore().then(async (store) => ({ bytes: await store.allModelsBytes() }))),
};
const localModelStore = () => import('../providers/in-browser/model-store');
const localModelCommands = () => import('../providers/in-browser/store-errors');
