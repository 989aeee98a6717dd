import type { Component, ComponentReference } from '@notify/domain';
import { z } from 'zod';

const referenceSchema = z.object({
  notificationId: z.string(),
  channel: z.string(),
  templateId: z.string(),
});

/** A component as answered (pingram's EmailComponentResponse). */
export const componentOutput = z.object({
  envId: z.string(),
  componentId: z.string(),
  name: z.string(),
  internal: z.string(),
  internalPage: z.string(),
  html: z.string(),
  createdAt: z.string(),
  modifiedAt: z.string(),
  referencedBy: z.array(referenceSchema),
  channel: z.literal('EMAIL'),
});
export type ComponentView = z.infer<typeof componentOutput>;

/**
 * `/components/public`: a component with its editor JSON (`internal`, `internalPage`) parsed, and
 * `html` with the components it uses expanded in place.
 */
export const parsedComponentOutput = componentOutput.extend({
  internal: z.unknown(),
  internalPage: z.unknown(),
});

export const presentComponent = (
  envId: string,
  component: Component,
  referencedBy: readonly ComponentReference[],
): ComponentView => ({ envId, ...component, referencedBy: [...referencedBy], channel: 'EMAIL' });
