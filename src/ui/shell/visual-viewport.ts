/**
 * Keeps `--viewport-height` on <html> at the height the user can see. Chromium shrinks the layout above the
 * on-screen keyboard by itself (`interactive-widget=resizes-content` in index.html); Safari ignores that and
 * only shrinks the visual viewport, so without this the keyboard would cover the composer there.
 * Returns a function that stops tracking.
 */
export function trackVisualViewport(): () => void {
  const viewport = typeof window === 'undefined' ? undefined : window.visualViewport;
  if (!viewport) return () => undefined;
  const root = document.documentElement;
  const update = () => {
    // Times the scale: a pinch zoom makes the visual viewport smaller without the layout having to shrink.
    root.style.setProperty('--viewport-height', `${Math.round(viewport.height * viewport.scale)}px`);
  };
  update();
  viewport.addEventListener('resize', update);
  return () => {
    viewport.removeEventListener('resize', update);
    root.style.removeProperty('--viewport-height');
  };
}
