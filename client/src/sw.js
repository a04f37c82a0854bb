// The service worker of web push (server/notify/push.py): shows a message the server sent while no tab of
// the game is open, and opens (or focuses) the table when it is clicked. It holds nothing else: no cache.
self.addEventListener('push', (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = { title: 'Tongiaki Online', body: event.data?.text() || '' }; }
  event.waitUntil(self.registration.showNotification(data.title || 'Tongiaki Online', {
    body: data.body || '', tag: data.tag || 'tongiaki', lang: data.lang || '', data: { url: data.url || '/' },
  }));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = event.notification.data?.url || '/';
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const c of open) {
      if (new URL(c.url).origin === self.location.origin && 'focus' in c) { await c.navigate(url).catch(() => null); return c.focus(); }
    }
    return self.clients.openWindow(url);
  })());
});
