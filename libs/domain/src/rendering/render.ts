import Handlebars from 'handlebars';

type Compiled = (context: Record<string, unknown>) => string;

const MAX_CACHED = 2_000;
const cache = new Map<string, Compiled>();

function compile(source: string, escapeHtml: boolean): Compiled {
  const key = `${escapeHtml ? 'h' : 't'}${source}`;
  let compiled = cache.get(key);
  if (compiled === undefined) {
    compiled = Handlebars.compile(source, { noEscape: !escapeHtml, strict: false });
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value ?? '');
    cache.set(key, compiled);
  }
  return compiled;
}

export class TemplateSyntaxError extends Error {
  constructor(
    readonly field: string,
    cause: unknown,
  ) {
    super(`${field}: ${cause instanceof Error ? cause.message.split('\n')[0] : String(cause)}`);
    this.name = 'TemplateSyntaxError';
  }
}

/**
 * Replaces `{{name}}` merge tags with parameters (Handlebars). In HTML, values are HTML-escaped so a
 * parameter cannot inject markup; in plain text (subjects, SMS) they are inserted as given.
 * Compiled templates are cached: the same template renders for every send of a notification.
 */
export function render(
  source: string,
  parameters: Record<string, unknown>,
  options: { html: boolean; field: string },
): string {
  if (!source.includes('{{')) return source;
  try {
    return compile(source, options.html)(parameters);
  } catch (error) {
    throw new TemplateSyntaxError(options.field, error);
  }
}
