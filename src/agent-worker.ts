import { superviseWorker } from './ui/state/worker-supervisor';

/**
 * The agent worker, started when this module is first evaluated: by src/boot.ts, before the app's own code has loaded,
 * so the worker's code, its database and the first screen's reads are under way meanwhile. A worker that
 * dies is restarted with its listeners (see the supervisor); a fresh one is the same code.
 */
export const agentWorker = superviseWorker(() => {
  const started = new Worker(new URL('./worker/main.ts', import.meta.url), { type: 'module' });
  started.addEventListener('error', (event) => console.error('Parley: the worker failed', event.message));
  return started;
});
