// Forwards every POST of the page it controls to /sw/forwarded, itself.
self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (e) { e.waitUntil(self.clients.claim()); });
self.addEventListener("fetch", function (e) {
  if (e.request.method === "POST") {
    e.respondWith(e.request.text().then(function (body) {
      return fetch("/sw/forwarded", { method: "POST", headers: { "Content-Type": "application/json" }, body: body });
    }));
  }
});
