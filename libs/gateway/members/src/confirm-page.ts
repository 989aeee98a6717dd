import { escapeHtml } from './member-mail';

/**
 * The page a mailed link opens: a button that POSTs the token. Opening the link changes nothing,
 * so mail scanners and link previews that fetch it cannot use it up.
 */
export function confirmPage(title: string, action: string, button: string, token: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title></head>
<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto">
<h1>${escapeHtml(title)}</h1>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">${escapeHtml(button)}</button>
</form>
</body></html>
`;
}
