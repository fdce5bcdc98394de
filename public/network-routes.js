// Parley: requests to other origins (the model provider, MCP servers, the sync server) go straight to the network,
// without waking this service worker: it has nothing to do with them, and each fetch event cost the agent a round
// trip through it before its request left (issue 21.22). Loaded by the generated service worker with importScripts.
/* global self, URLPattern */
(function () {
  self.addEventListener('install', function (event) {
    // The Static Routing API (Chromium 123+); elsewhere every request still reaches the fetch handlers, as before.
    if (typeof event.addRoutes !== 'function' || typeof URLPattern !== 'function') return;
    var own = new URLPattern({ protocol: self.location.protocol.replace(':', ''), hostname: self.location.hostname, port: self.location.port });
    event.waitUntil(
      Promise.resolve(event.addRoutes([{ condition: { not: { urlPattern: own } }, source: 'network' }])).catch(function (error) {
        // A browser that knows addRoutes but not this condition: the service worker installs and works as before.
        console.warn('Parley: the network route was not added', error);
      }),
    );
  });
})();
