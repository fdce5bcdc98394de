// Parley: makes the app cross-origin isolated on static hosts that cannot set headers (the in-browser model's
// multi-threaded WebAssembly needs SharedArrayBuffer). Loaded by the generated service worker with importScripts,
// before Workbox's routes: for pages and worker scripts it wraps whatever response Workbox gives (precache or
// network) with COOP/COEP, and the headers that forbid framing. Other requests, fetch() calls to model providers and
// MCP servers included, are untouched: CORS requests keep working, and with COEP credentialless so does the no-cors
// probe that recognizes a CORS refusal.
/* global self */
(function () {
  var ISOLATING_DESTINATIONS = { document: true, iframe: true, worker: true, sharedworker: true };

  function withIsolationHeaders(response) {
    if (!response || response.status === 0 || response.type === 'opaqueredirect') return response;
    var headers = new Headers(response.headers);
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    headers.set('Cross-Origin-Embedder-Policy', 'credentialless');
    // And no framing (vite.config.ts, FRAME_HEADERS): a page served from the cache must refuse a frame as the server's does.
    headers.set('X-Frame-Options', 'DENY');
    headers.append('Content-Security-Policy', "frame-ancestors 'none'");
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: headers });
  }

  self.addEventListener('fetch', function (event) {
    var request = event.request;
    if (!ISOLATING_DESTINATIONS[request.destination] && request.mode !== 'navigate') return;
    if (new URL(request.url).origin !== self.location.origin) return;
    var respondWith = event.respondWith.bind(event);
    // Workbox's listener runs after this one and calls respondWith; its response gets the headers on the way out.
    event.respondWith = function (response) {
      respondWith(Promise.resolve(response).then(withIsolationHeaders));
    };
  });
})();
