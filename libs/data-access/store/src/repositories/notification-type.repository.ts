import { Inject, Injectable } from '@nestjs/common';
import type {
  Channel,
  CreateNotificationType,
  DeliveryMode,
  NotificationType,
  PatchNotificationType,
  SubNotification,
  TenantScope,
} from '@notify/domain';
import { withSubNotification } from '@notify/domain';
import { Collections, type NotificationTypeDoc } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';
import { scopeKey, scopeOf, unscoped } from './scope';

@Injectable()
export class NotificationTypeRepository {
  private readonly types: DocumentCollection<NotificationTypeDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.types = store.collection(Collections.notificationTypes);
  }

  async get(scope: TenantScope, notificationId: string): Promise<NotificationType | undefined> {
    const doc = await this.types.get([...scopeKey(scope), notificationId]);
    return doc === undefined ? undefined : unscoped(doc);
  }

  async list(scope: TenantScope): Promise<NotificationType[]> {
    const docs = await this.types.list(scopeKey(scope), { limit: 1_000 });
    return docs.map(unscoped);
  }

  /** false when a type with this id exists already. */
  create(scope: TenantScope, input: CreateNotificationType, now: string): Promise<boolean> {
    return this.types.insert({
      ...scopeOf(scope),
      notificationId: input.notificationId,
      title: input.title,
      channels: [...new Set(input.channels)],
      enabled: true,
      ...(input.options === undefined ? {} : { options: input.options }),
      createdAt: now,
      updatedAt: now,
    });
  }

  /**
   * The type a send refers to, created on first use with the channels that send can reach (spec
   * 1: "sending with a type that does not exist creates that type"). Concurrent first sends create
   * it once.
   */
  async ensure(
    scope: TenantScope,
    notificationId: string,
    channels: readonly Channel[],
    now: string,
  ): Promise<NotificationType> {
    const doc = await this.types.modify([...scopeKey(scope), notificationId], (current) =>
      current !== undefined
        ? undefined
        : {
            ...scopeOf(scope),
            notificationId,
            title: notificationId,
            channels: [...channels],
            enabled: true,
            createdAt: now,
            updatedAt: now,
          },
    );
    if (doc === undefined) throw new Error('ensure stored nothing');
    return unscoped(doc);
  }

  async update(
    scope: TenantScope,
    notificationId: string,
    patch: PatchNotificationType,
    now: string,
  ): Promise<NotificationType | undefined> {
    const doc = await this.types.modify([...scopeKey(scope), notificationId], (current) => {
      if (current === undefined) return undefined;
      const next: NotificationTypeDoc = { ...current, updatedAt: now };
      if (patch.title !== undefined) next.title = patch.title;
      if (patch.channels !== undefined) next.channels = [...new Set(patch.channels)];
      if (patch.enabled !== undefined) next.enabled = patch.enabled;
      if (patch.options !== undefined) next.options = patch.options;
      if (patch.urgent !== undefined) next.urgent = patch.urgent;
      for (const field of ['deduplication', 'throttling', 'retention', 'quietHours'] as const) {
        const value = patch[field];
        if (value === null) delete next[field];
        else if (value !== undefined) Object.assign(next, { [field]: value });
      }
      return next;
    });
    // modify returns the current document when nothing was written; a missing type stays missing.
    return doc === undefined ? undefined : unscoped(doc);
  }

  /** Makes `templateId` the default of `channel` for each delivery mode listed. */
  async setDefaultTemplate(
    scope: TenantScope,
    notificationId: string,
    channel: Channel,
    templateId: string,
    modes: readonly DeliveryMode[],
    now: string,
  ): Promise<NotificationType | undefined> {
    const doc = await this.types.modify([...scopeKey(scope), notificationId], (current) => {
      if (current === undefined) return undefined;
      const forChannel = { ...current.defaultTemplates?.[channel] };
      for (const mode of modes) forChannel[mode] = templateId;
      return {
        ...current,
        defaultTemplates: { ...current.defaultTemplates, [channel]: forChannel },
        updatedAt: now,
      };
    });
    return doc === undefined ? undefined : unscoped(doc);
  }

  /** Forgets a template as the default of any delivery mode (it is being deleted). */
  async clearDefaultTemplate(
    scope: TenantScope,
    notificationId: string,
    channel: Channel,
    templateId: string,
    now: string,
  ): Promise<void> {
    await this.types.modify([...scopeKey(scope), notificationId], (current) => {
      const forChannel = current?.defaultTemplates?.[channel];
      if (
        current === undefined ||
        forChannel === undefined ||
        !Object.values(forChannel).includes(templateId)
      )
        return undefined;
      const kept = Object.fromEntries(Object.entries(forChannel).filter(([, id]) => id !== templateId));
      return {
        ...current,
        defaultTemplates: { ...current.defaultTemplates, [channel]: kept },
        updatedAt: now,
      };
    });
  }

  /**
   * Adds or renames a sub-notification of the type (TooManySubNotificationsError past the cap);
   * undefined when the type does not exist.
   */
  async putSubNotification(
    scope: TenantScope,
    notificationId: string,
    sub: SubNotification,
    now: string,
  ): Promise<NotificationType | undefined> {
    const doc = await this.types.modify([...scopeKey(scope), notificationId], (current) =>
      current === undefined
        ? undefined
        : {
            ...current,
            subNotifications: withSubNotification(current.subNotifications ?? [], sub),
            updatedAt: now,
          },
    );
    return doc === undefined ? undefined : unscoped(doc);
  }

  /** false when the type or its sub-notification does not exist. */
  async removeSubNotification(
    scope: TenantScope,
    notificationId: string,
    subNotificationId: string,
    now: string,
  ): Promise<boolean> {
    let removed = false;
    await this.types.modify([...scopeKey(scope), notificationId], (current) => {
      const kept = current?.subNotifications?.filter((s) => s.subNotificationId !== subNotificationId);
      removed =
        current !== undefined && kept !== undefined && kept.length < (current.subNotifications?.length ?? 0);
      return removed && current !== undefined
        ? { ...current, subNotifications: kept, updatedAt: now }
        : undefined;
    });
    return removed;
  }

  delete(scope: TenantScope, notificationId: string): Promise<boolean> {
    return this.types.remove([...scopeKey(scope), notificationId]);
  }
}
