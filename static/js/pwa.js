// Every page: the service worker (static/sw.js, served at /sw.js) is registered where the
// browser allows one (a secure context: HTTPS, or localhost), for the offline page and
// the notices outside the page.
export const workerReady = ("serviceWorker" in navigator && window.isSecureContext)
  ? navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => navigator.serviceWorker.ready)
    .catch(() => null)
  : Promise.resolve(null);
