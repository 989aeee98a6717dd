// The email preview frame (frame.html). The console loads it in an iframe sandboxed without
// allow-same-origin, so it runs in an opaque origin: the email's HTML can reach neither the console's
// session nor its DOM. Its own CSP blocks the email's scripts; remote images load as a mail client's would.
window.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (event.source !== window.parent || typeof event.data !== 'object' || event.data === null) return;
  const { html } = event.data as { html?: unknown };
  if (typeof html !== 'string') return;
  const next = new DOMParser().parseFromString(html, 'text/html');
  document.replaceChild(document.adoptNode(next.documentElement), document.documentElement);
});
window.parent.postMessage({ ready: true }, '*');
