import { Inject, Injectable } from '@nestjs/common';
import {
  type Channel,
  compactTemplateContent,
  type Template,
  type TemplateContent,
  type TenantScope,
} from '@notify/domain';
import { Collections, type TemplateDoc } from '../collections';
import {
  DOCUMENT_STORE,
  type DocumentCollection,
  type DocumentStore,
  MAX_PAGE_LIMIT,
} from '../document-store.port';
import { scopeKey, scopeOf, unscoped } from './scope';

@Injectable()
export class TemplateRepository {
  private readonly templates: DocumentCollection<TemplateDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.templates = store.collection(Collections.templates);
  }

  async list(scope: TenantScope, notificationId: string, channel: Channel): Promise<Template[]> {
    const docs = await this.templates.list([...scopeKey(scope), notificationId, channel], { limit: 1_000 });
    return docs.map(unscoped);
  }

  /**
   * Every template of the environment on `channel`, a page at a time, however many notifications
   * and templates it has: one walk over the environment's templates in key order, and where a page
   * ends inside a notification, that notification's templates on the channel paged on their own.
   */
  async *eachPageOnChannel(scope: TenantScope, channel: Channel): AsyncGenerator<Template[]> {
    let after: string | undefined;
    for (;;) {
      const page = await this.templates.list(scopeKey(scope), { after, limit: MAX_PAGE_LIMIT });
      const last = page.length < MAX_PAGE_LIMIT ? undefined : page.at(-1)?.notificationId;
      yield page.filter((t) => t.channel === channel && t.notificationId !== last).map(unscoped);
      if (last === undefined) return;
      yield* this.pagesOf(scope, last, channel);
      after = last;
    }
  }

  private async *pagesOf(
    scope: TenantScope,
    notificationId: string,
    channel: Channel,
  ): AsyncGenerator<Template[]> {
    let after: string | undefined;
    for (;;) {
      const page = await this.templates.list([...scopeKey(scope), notificationId, channel], {
        after,
        limit: MAX_PAGE_LIMIT,
      });
      yield page.map(unscoped);
      if (page.length < MAX_PAGE_LIMIT) return;
      after = page.at(-1)?.templateId;
    }
  }

  async get(
    scope: TenantScope,
    notificationId: string,
    channel: Channel,
    templateId: string,
  ): Promise<Template | undefined> {
    const doc = await this.templates.get([...scopeKey(scope), notificationId, channel, templateId]);
    return doc === undefined ? undefined : unscoped(doc);
  }

  /**
   * false when the template id is taken for this notification and channel. Content is stored
   * compacted (an empty field is an unset one): see compactTemplateContent.
   */
  create(scope: TenantScope, template: Template): Promise<boolean> {
    return this.templates.insert({ ...scopeOf(scope), ...compactTemplateContent(template) });
  }

  /** Applies the fields given; an empty string clears one. */
  async update(
    scope: TenantScope,
    notificationId: string,
    channel: Channel,
    templateId: string,
    content: TemplateContent,
    now: string,
  ): Promise<Template | undefined> {
    const doc = await this.templates.modify(
      [...scopeKey(scope), notificationId, channel, templateId],
      (current) =>
        current === undefined
          ? undefined
          : { ...compactTemplateContent({ ...current, ...content }), updatedAt: now },
    );
    return doc === undefined ? undefined : unscoped(doc);
  }

  delete(scope: TenantScope, notificationId: string, channel: Channel, templateId: string): Promise<boolean> {
    return this.templates.remove([...scopeKey(scope), notificationId, channel, templateId]);
  }

  /** Removes every template of a notification type (when the type is deleted). */
  deleteAllOf(scope: TenantScope, notificationId: string): Promise<number> {
    return this.templates.removeAll([...scopeKey(scope), notificationId]);
  }
}
