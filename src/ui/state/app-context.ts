import { createContext, useContext } from 'solid-js';
import type { WorkerClient } from './channel';
import type { UiEvent, UiState } from './store';

/** What every component of the shell may use: the client (failures are reported), the store. */
export interface AppServices {
  client: WorkerClient;
  state: UiState;
  dispatch(event: UiEvent): void;
}

/** Provided once by `<App>`; read it through `useApp()`. */
export const AppContext = createContext<AppServices>();

/** The app's services; throws when used outside `<App>`, which is a wiring bug. */
export function useApp(): AppServices {
  const services = useContext(AppContext);
  if (!services) throw new Error('useApp() must be used inside <App>');
  return services;
}
