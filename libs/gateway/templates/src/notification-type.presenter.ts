import {
  type Channel,
  CHANNELS,
  channelSchema,
  deduplicationSchema,
  type NotificationType,
  type Template,
  templateContentSchema,
  quietHoursSchema,
  throttlingSchema,
  TEMPLATE_ANSWER_FIELDS,
  typeOptionsSchema,
  withAnswerFields,
} from '@notify/domain';
import type { Tenant } from '@notify/gateway-auth';
import { namedSchema } from '@notify/util';
import { z } from 'zod';

/** The documented shape of presentType's result. */
export const notificationTypeOutput = z.object({
  envId: z.string(),
  notificationId: z.string(),
  title: z.string(),
  channels: z.array(channelSchema),
  enabled: z.boolean(),
  deduplication: deduplicationSchema.optional(),
  throttling: throttlingSchema.optional(),
  retention: z.number().optional(),
  quietHours: quietHoursSchema.optional(),
  urgent: z.boolean().optional(),
  options: typeOptionsSchema,
  templates: z.array(z.object({ channel: channelSchema, templateIds: z.array(z.string()) })).optional(),
});
// Named in the OpenAPI document as the pingram client names the shape.
namedSchema('Notification', notificationTypeOutput);

/** Per channel, the fields its templates always answer with (see TEMPLATE_ANSWER_FIELDS). */
const answerFields = CHANNELS.map((channel) => {
  const { text, variants } = TEMPLATE_ANSWER_FIELDS[channel];
  return `${channel}: ${[...text, ...(variants ? ['instant', 'batch'] : [])].join(', ')}`;
}).join('; ');

/** The documented shape of presentTemplate's result. */
export const templateOutput = templateContentSchema
  .extend({
    envId: z.string(),
    notificationId: z.string(),
    channel: channelSchema,
    templateId: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    default: z.boolean(),
    isDefaultFor: z.record(z.string(), z.boolean()),
  })
  .describe(
    `A template. The fields of its channel are always present, "" when unset (in-app variants with their title, redirectURL and imageURL): ${answerFields}.`,
  );
namedSchema('Template', templateOutput);

/** The API shape of a notification type (the pingram client's `Notification`). */
export function presentType(tenant: Tenant, type: NotificationType, templates?: readonly Template[]) {
  const byChannel = new Map<Channel, string[]>();
  for (const t of templates ?? [])
    byChannel.set(t.channel, [...(byChannel.get(t.channel) ?? []), t.templateId]);
  return {
    envId: tenant.envId,
    notificationId: type.notificationId,
    title: type.title,
    channels: type.channels,
    enabled: type.enabled,
    ...(type.deduplication ? { deduplication: type.deduplication } : {}),
    ...(type.throttling ? { throttling: type.throttling } : {}),
    ...(type.retention !== undefined ? { retention: type.retention } : {}),
    ...(type.quietHours ? { quietHours: type.quietHours } : {}),
    ...(type.urgent !== undefined ? { urgent: type.urgent } : {}),
    options: type.options ?? {},
    ...(templates
      ? { templates: [...byChannel].map(([channel, templateIds]) => ({ channel, templateIds })) }
      : {}),
  };
}

/** The API shape of a template: its content plus whether it is a default, per delivery mode. */
export function presentTemplate(tenant: Tenant, template: Template, type: NotificationType | undefined) {
  const defaults = type?.defaultTemplates?.[template.channel] ?? {};
  const isDefaultFor = Object.fromEntries(
    Object.entries(defaults).map(([mode, id]) => [mode, id === template.templateId]),
  );
  return {
    ...withAnswerFields(template),
    envId: tenant.envId,
    default: defaults.instant === template.templateId,
    isDefaultFor,
  };
}
