import type {
  NormalizedSend,
  NotificationType,
  SendRequested,
  Template,
  TenantScope,
  UserFields,
} from '@notify/domain';

/** The tenant every factory uses unless told otherwise. */
export const aScope = (scope: Partial<TenantScope> = {}): TenantScope => ({
  accountId: 'acc-1',
  envId: 'env-1',
  ...scope,
});

/** A user's contact fields: an email address and a phone number unless overridden. */
export const aUser = (fields: Partial<UserFields> = {}): UserFields => ({
  email: 'ann@example.test',
  number: '+15005550006',
  ...fields,
});

/** A send as the gateway normalises it: type `welcome` to user `u-1`, no inline content. */
export const aSend = (send: Partial<NormalizedSend> = {}): NormalizedSend => ({
  notificationId: 'welcome',
  userId: 'u-1',
  recipient: {},
  parameters: {},
  ...send,
});

/** An accepted send as the router receives it from the bus. */
export const aSendRequest = (
  request: Partial<Omit<SendRequested, 'send'>> & { send?: Partial<NormalizedSend> } = {},
): SendRequested => {
  const { send, ...rest } = request;
  const scope = aScope({
    ...(rest.accountId !== undefined ? { accountId: rest.accountId } : {}),
    ...(rest.envId !== undefined ? { envId: rest.envId } : {}),
  });
  return {
    trackingId: 'trk-1',
    ...scope,
    receivedAt: Date.parse('2026-01-05T09:00:00.000Z'),
    test: false,
    source: 'send',
    client: {},
    request: '{}',
    ...rest,
    send: aSend(send),
  };
};

/** A notification type with the given channels (email unless told), enabled. */
export const aNotificationType = (type: Partial<NotificationType> = {}): NotificationType => ({
  notificationId: 'welcome',
  title: 'welcome',
  channels: ['EMAIL'],
  enabled: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...type,
});

/** A stored template of a channel (email unless told) with the given content. */
export const aTemplate = (template: Partial<Template> = {}): Template => ({
  notificationId: 'welcome',
  channel: 'EMAIL',
  templateId: 'tpl-1',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...template,
});
