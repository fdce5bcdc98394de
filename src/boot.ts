// The page's first script: it starts the agent worker, then the app. The worker's code and the app's load side by side
// (vite.config.ts preloads the app's files from index.html), instead of the worker waiting for the app to run first.
import './agent-worker';

void import('./main');
