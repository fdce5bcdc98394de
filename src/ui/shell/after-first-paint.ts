/** A hidden tab paints no frames: its deferred work runs after this long instead. */
const HIDDEN_TAB_MS = 1000;

/**
 * Runs `work` once the page has painted its next frame (or, in a hidden tab, after a second): startup work the first
 * screen does not need, such as the service worker's registration, waits until that screen is on show, so it neither
 * delays the frame nor competes with the first screen's own work.
 */
export function afterFirstPaint(work: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    work();
  };
  // A task queued from a frame callback runs after that frame was painted.
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, HIDDEN_TAB_MS);
}
