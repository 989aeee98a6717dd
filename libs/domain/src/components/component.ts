import { z } from 'zod';
import type { Channel } from '../channels/channel';
import { Limits } from '../validation/limits';

/**
 * How deep components may nest (a component using a component using …): checked when a component
 * is saved, and again by every render, so no chain of partials, however it came about, can recurse
 * without end.
 */
export const MAX_COMPONENT_DEPTH = 8;

/**
 * How many component runs one render of a component or template may amount to (every
 * `{{> componentId}}`, and every one inside the components it runs, counted each time it runs):
 * checked when a component or template is saved, so that repeating components (empty ones too)
 * cannot multiply a render's work. Renders count runs against their iteration budget as well.
 */
export const MAX_COMPONENT_CALLS = 1_000;

/** Components an environment may hold: every email render of the environment can reach them all. */
export const MAX_COMPONENTS_PER_ENVIRONMENT = 500;

/** Words Handlebars reads as literals or keywords after `{{>`, never as a partial's name. */
const RESERVED = new Set(['true', 'false', 'null', 'undefined', 'this', 'else']);

/**
 * A component's id is the name templates use (`{{> componentId}}`) and part of its storage key, so
 * it is a plain Handlebars identifier: a letter, then letters, digits, `_` or `-`.
 */
export const componentIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z][A-Za-z0-9_-]*$/, {
    message: 'must start with a letter and hold only letters, digits, _ and -',
  })
  .refine((id) => !RESERVED.has(id), { message: 'is a Handlebars keyword' });

/** What a caller may set; bounded like a template's fields (`internal` is the editor's design JSON). */
const contentShape = {
  name: z.string().min(1).max(Limits.name),
  internal: z.string().max(Limits.html),
  internalPage: z.string().max(Limits.html),
  html: z.string().max(Limits.html),
};

export const createComponentSchema = z.object({
  componentId: componentIdSchema,
  name: contentShape.name,
  internal: contentShape.internal.optional(),
  internalPage: contentShape.internalPage.optional(),
  html: contentShape.html.optional(),
});
export type CreateComponentBody = z.infer<typeof createComponentSchema>;

export const patchComponentSchema = z.object(contentShape).partial();
export type ComponentPatch = z.infer<typeof patchComponentSchema>;

/** A reusable email fragment of one environment; its channel is always EMAIL. */
export interface Component {
  readonly componentId: string;
  readonly name: string;
  readonly internal: string;
  readonly internalPage: string;
  readonly html: string;
  readonly createdAt: string;
  readonly modifiedAt: string;
}

/** A stored template whose content uses a component. */
export interface ComponentReference {
  readonly notificationId: string;
  readonly channel: Channel;
  readonly templateId: string;
}

/** The HTML of an environment's components by id: what email renders resolve `{{> id}}` against. */
export type ComponentSources = ReadonlyMap<string, string>;
