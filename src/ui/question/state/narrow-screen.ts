import { createSignal, onCleanup, type Accessor } from 'solid-js';

/** Below this width the question tabs give way to the stepper (question-form.css uses the same width). */
export const NARROW_SCREEN_QUERY = '(max-width: 600px)';

/** Whether the screen is narrow (a phone held upright); follows rotation and window resizes. */
export function createNarrowScreen(): Accessor<boolean> {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => false;
  const query = window.matchMedia(NARROW_SCREEN_QUERY);
  const [narrow, setNarrow] = createSignal(query.matches);
  const onChange = (event: MediaQueryListEvent) => setNarrow(event.matches);
  query.addEventListener('change', onChange);
  onCleanup(() => query.removeEventListener('change', onChange));
  return narrow;
}
