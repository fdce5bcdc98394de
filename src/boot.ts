// The page's first script: it starts the agent worker, then the app. The worker's code and the app's load side by side
// (vite.config.ts preloads the app's files from index.html), instead of the worker waiting for the app to run first.
// Framed by another page, Parley does not run at all (clickjacking): the app shell's script has put one line, a link
// to Parley in its own tab, in the shell's place, and neither the worker nor the app starts.
if (window.top === window.self) {
  void import('./agent-worker');
  void import('./main');
}
