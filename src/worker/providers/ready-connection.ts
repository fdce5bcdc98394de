import { providerKind } from '../../schema/provider-kinds';
import type { Profile } from '../../schema/records';

/**
 * Opens a connection to a profile's server ahead of a model request that is about to follow, when the one it had may
 * have gone idle: an Allow's tool runs while the next request waits for its result, and the user read the card for
 * longer than many servers keep an idle socket (Node's and cpp-httplib's 5 s), so without this that request waited for a
 * new socket (and, over TLS, its handshake) after the result. One `HEAD` of the server's origin, `no-cors` (no preflight,
 * nothing read; the same socket pool as the provider's own requests, which send no credentials either); its answer or
 * failure is ignored. Kinds with no server (scripted, in-browser) send nothing. See docs/architecture.md, "An approval on
 * screen readies its server".
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
  void fetcher(`${origin}/`, { method: 'HEAD', mode: 'no-cors', credentials: 'omit', cache: 'no-store' }).catch(() => undefined);
}
