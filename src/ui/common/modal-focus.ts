import { onCleanup, onMount } from 'solid-js';

/**
 * Makes a dialog modal while it is mounted: the app behind it is inert and hidden from assistive technology, `focus()`
 * is called once it is in the page, and the focus goes back where it was when it closes.
 */
export function useModalFocus(focus: () => void): void {
  onMount(() => {
    const background = document.querySelector<HTMLElement>('.app');
    const previousFocus = document.activeElement as HTMLElement | null;
    background?.setAttribute('inert', '');
    background?.setAttribute('aria-hidden', 'true');
    focus();
    onCleanup(() => {
      background?.removeAttribute('inert');
      background?.removeAttribute('aria-hidden');
      previousFocus?.focus?.();
    });
  });
}
