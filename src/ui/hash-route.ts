import { createSignal, onCleanup, type Accessor } from 'solid-js';

/** Where the app is. The hash is the whole route, so a reload or a shared link lands in the same place. */
type Route = { name: 'home' } | { name: 'settings'; tool?: string } | { name: 'conversation'; conversationId: string };

/**
 * Reads a location hash such as `#/c/abc`, `#/settings` or `#/settings?tool=mcp__server__tool` (Settings at that tool's
 * permission); anything else is home.
 */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '');
  if (path === '/settings') return { name: 'settings' };
  const tool = /^\/settings\?tool=([^&]+)$/.exec(path);
  if (tool) {
    try {
      return { name: 'settings', tool: decodeURIComponent(tool[1]!) };
    } catch {
      return { name: 'settings' };
    }
  }
  const match = /^\/c\/([^/]+)$/.exec(path);
  if (match) {
    try {
      return { name: 'conversation', conversationId: decodeURIComponent(match[1]!) };
    } catch {
      return { name: 'home' };
    }
  }
  return { name: 'home' };
}

/** The hash for a route, the inverse of `parseRoute`. */
export function routeHash(route: Route): string {
  switch (route.name) {
    case 'home':
      return '#/';
    case 'settings':
      return route.tool === undefined ? '#/settings' : `#/settings?tool=${encodeURIComponent(route.tool)}`;
    case 'conversation':
      return `#/c/${encodeURIComponent(route.conversationId)}`;
  }
}

/** Views told of a navigation at once, before the browser's (asynchronous) hashchange event. */
const listeners = new Set<(route: Route) => void>();

/**
 * Goes to a route by changing the hash, so the browser's back button works as expected. The view switches in the same
 * task: text typed right after a click lands in the new view, not in the old one that is about to go.
 */
export function navigate(route: Route): void {
  const hash = routeHash(route);
  if (window.location.hash !== hash) window.location.hash = hash;
  for (const listener of listeners) listener(route);
}

/** The current route as a signal that follows `hashchange`. Call inside a component. */
export function createHashRoute(): Accessor<Route> {
  const [route, setRoute] = createSignal<Route>(parseRoute(window.location.hash), {
    equals: (previous, next) => routeHash(previous) === routeHash(next),
  });
  const onHashChange = () => setRoute(parseRoute(window.location.hash));
  window.addEventListener('hashchange', onHashChange);
  listeners.add(setRoute);
  onCleanup(() => {
    window.removeEventListener('hashchange', onHashChange);
    listeners.delete(setRoute);
  });
  return route;
}
