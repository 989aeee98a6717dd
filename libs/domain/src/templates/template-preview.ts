import type { Channel } from '../channels/channel';
import { channelStrategy } from '../channels/registry';
import type { ComponentSources } from '../components/component';
import { sampleParameters } from '../rendering/sample-parameters';
import { TemplateError, type TemplateRenderer } from '../rendering/template-renderer';
import type { ChannelStrategy } from '../routing/channel-strategy';
import type { TemplateContent } from './template';

/** A field of the template that cannot be rendered, and why (a syntax error, an unknown partial…). */
export interface PreviewProblem {
  readonly field: string;
  readonly message: string;
}

export interface TemplatePreview {
  /** The channel's content as it would be sent (see each channel strategy's `preview`). */
  readonly rendered: Record<string, unknown>;
  /** The parameters rendered with: those given, else a sample value per merge tag. */
  readonly parameters: Record<string, unknown>;
  readonly problems: PreviewProblem[];
}

export interface PreviewOptions {
  readonly channel: Channel;
  readonly content: TemplateContent;
  readonly parameters?: Record<string, unknown>;
  /** The renderer and its budget per render, as the router's. */
  readonly renderer: TemplateRenderer;
  /** The environment's components, which email HTML uses as partials. */
  readonly components?: ComponentSources;
}

/**
 * A template's content rendered as its channel's compose would render it, without sending or
 * storing anything. Without parameters, every merge tag gets a sample value (its own name in
 * brackets). A field that does not render is a problem of the preview, not an error: the rest
 * still renders, and the field is left out.
 */
export function previewTemplate(options: PreviewOptions): TemplatePreview {
  const { content, renderer, components } = options;
  const strategy = channelStrategy(options.channel);
  const parameters = options.parameters ?? samplesFor(strategy, content);
  const problems: PreviewProblem[] = [];
  const render = (field: string, source: string | undefined, html: boolean): string | undefined => {
    if (source === undefined) return undefined;
    try {
      // Not cached: each preview is a draft, rendered once, as inline content is.
      return renderer.render(source, parameters, {
        html,
        field,
        cache: false,
        ...(html && components !== undefined ? { partials: components } : {}),
      });
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      if (!problems.some((p) => p.field === field && p.message === error.reason))
        problems.push({ field, message: error.reason });
      return undefined;
    }
  };
  const rendered = strategy.preview(content, {
    text: (field, source) => render(field, source, false),
    html: (field, source) => render(field, source, true),
  });
  return { rendered, parameters, problems };
}

/** Samples for the merge tags of exactly the fields the channel renders, gathered by a dry run. */
function samplesFor(strategy: ChannelStrategy, content: TemplateContent): Record<string, unknown> {
  const sources: { field: string; source: string | undefined }[] = [];
  const gather = (field: string, source: string | undefined) => {
    sources.push({ field, source });
    return source;
  };
  strategy.preview(content, { text: gather, html: gather });
  return sampleParameters(sources, 'skip');
}
