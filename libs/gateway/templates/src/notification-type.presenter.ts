import type { Channel, NotificationType, Template } from '@notify/domain';
import { type Tenant } from '@notify/gateway-auth';

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
    ...template,
    envId: tenant.envId,
    default: defaults.instant === template.templateId,
    isDefaultFor,
  };
}
