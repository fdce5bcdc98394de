import { providerKind } from '../../schema/provider-kinds';
import type { Profile } from '../../schema/records';

/**
 * Opens a connection to a profile's server ahead of a model request that is about to follow, when the one it had may
 * have gone idle: an Allow's tool runs while the next request waits for its result, and the user read the card for
 * longer than many servers keep an idle socket (Node's and cpp-httplib's 5 s), so without this that request waited for a
 * new socket (and, over TLS, its handshake) after the result. One `HEAD` of the server's origin, without credentials
 * (no key, no cookies); its answer or failure is ignored. It is a CORS request, as the provider's own are: Chromium keeps
 * `no-cors` requests' sockets apart from CORS requests', so a `no-cors` HEAD opened a socket the model request never used
 * (bench trace: a new connection for every request after an Allow). A HEAD with no headers of its own is a simple
 * request: no preflight. Kinds with no server (scripted, in-browser) send nothing. See docs/architecture.md, "An approval
 * on screen readies its server".
 */
export function readyConnection(profile: Profile, fetcher: typeof fetch = (input, init) => globalThis.fetch(input, init)): void {
  if (providerKind(profile.kind).form !== 'connection') return;
  let origin: string;
  try {
    const url = new URL(profile.baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
    origin = url.origin;
  } catch {
    return;
  }
  void fetcher(`${origin}/`, { method: 'HEAD', mode: 'cors', credentials: 'omit', cache: 'no-store' }).catch(() => undefined);
}
