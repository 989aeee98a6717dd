import type { TemplateRenderer } from '../rendering/template-renderer';

interface RenderOptions {
  readonly renderer: TemplateRenderer;
  readonly parameters: Record<string, unknown>;
  /** The send body's field, for rendering errors. */
  readonly field: string;
}

/**
 * A push's title and message with their merge tags rendered as plain text (a push is not HTML), or
 * undefined when either is missing or renders empty. Template content is cached by the renderer;
 * inline content is not (each send's is new).
 */
export function renderTitleAndMessage(
  source: { readonly title?: string; readonly message?: string } | undefined,
  fromTemplate: boolean,
  { renderer, parameters, field }: RenderOptions,
): { title: string; message: string } | undefined {
  if (source?.title === undefined || source.message === undefined) return undefined;
  const render = (text: string, part: string) =>
    renderer.render(text, parameters, { html: false, field: `${field}.${part}`, cache: fromTemplate });
  const title = render(source.title, 'title');
  const message = render(source.message, 'message');
  return title.length === 0 && message.length === 0 ? undefined : { title, message };
}
