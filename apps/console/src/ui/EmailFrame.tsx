import { useEffect, useRef, useState } from 'react';

/**
 * An email's HTML as a mail client shows it, in a frame sandboxed without allow-same-origin: an
 * opaque origin that reaches neither the console's session nor its page, with a policy of its own
 * that runs none of the email's scripts. The HTML is handed over by message once the frame is ready.
 */
export function EmailFrame({ html, width, title }: { html: string; width: number; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const listen = (event: MessageEvent<unknown>) => {
      if (event.source !== frame.current?.contentWindow) return;
      const data = event.data as { ready?: unknown } | null;
      if (data?.ready === true) setReady(true);
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, []);
  useEffect(() => {
    // The frame's origin is opaque, so '*' is the only target that reaches it; the frame checks the sender.
    if (ready) frame.current?.contentWindow?.postMessage({ html }, '*');
  }, [ready, html]);
  return (
    // Wider than a phone's screen, the box scrolls: it takes focus so the keyboard can scroll it.
    <div className="email-frame-box" role="region" aria-label={title} tabIndex={0}>
      <iframe
        ref={frame}
        className="email-frame"
        title={title}
        src="/console/frame.html"
        sandbox="allow-scripts"
        style={{ width: `${width}px` }}
      />
    </div>
  );
}
