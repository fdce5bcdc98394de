// Parley: what the service worker does when the user clicks one of Parley's notifications ("Parley is waiting for …"). Loaded
// by the generated service worker with importScripts. It focuses a tab of Parley and asks it to open the conversation
// the notification names, or opens a new tab at that conversation when none is open.
/* global self, clients */
(function () {
  self.addEventListener('notificationclick', function (event) {
    var notification = event.notification;
    var conversationId = notification && notification.data && notification.data.conversationId;
    if (notification) notification.close();
    if (typeof conversationId !== 'string') return;
    var url = new URL('/#/c/' + encodeURIComponent(conversationId), self.location.origin).href;
    event.waitUntil(
      clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (windows) {
        var own = windows.filter(function (client) {
          return new URL(client.url).origin === self.location.origin;
        });
        var target = own.find(function (client) { return client.focused; }) || own[0];
        if (!target) return clients.openWindow(url);
        target.postMessage({ type: 'parley-open-conversation', conversationId: conversationId });
        return target.focus().catch(function () {
          // Focus needs the click's permission; the tab still opened the conversation.
        });
      }),
    );
  });
})();
