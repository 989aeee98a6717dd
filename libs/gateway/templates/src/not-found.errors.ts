import type { Channel } from '@notify/domain';
import { NotFoundError } from '@notify/util';

export const typeNotFound = (notificationId: string) =>
  new NotFoundError({
    code: 'NOT_FOUND',
    message: `No notification type "${notificationId}" in this environment.`,
    fix: 'Create it with POST /types, or send with it (a send creates its type).',
  });

export const templateNotFound = (templateId: string, channel: Channel) =>
  new NotFoundError({
    code: 'NOT_FOUND',
    message: `No ${channel} template "${templateId}" for this notification.`,
    fix: 'List them with GET …/templates.',
  });
