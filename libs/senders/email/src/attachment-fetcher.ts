import { Injectable } from '@nestjs/common';
import { type Attachment, base64Bytes, MAX_URL_ATTACHMENT_BYTES } from '@notify/domain';
import {
  type AppConfig,
  type ByteBudget,
  EgressError,
  InjectConfig,
  safeFetch,
  Semaphore,
} from '@notify/platform';
import type { Attachment as MailAttachment } from 'nodemailer/lib/mailer';

/**
 * Attachments of an email, as bytes. Memory is bounded three ways: one email's files together stay
 * under EMAIL_ATTACHMENTS_MAX_MB (inline ones count too), every download finishes within
 * ATTACHMENT_FETCH_TIMEOUT_MS however slowly a server drips, and at most
 * ATTACHMENT_FETCH_CONCURRENCY emails hold downloaded files at once (a slot is held from the first
 * download until the email is handed to the relay).
 */
@Injectable()
export class AttachmentFetcher {
  private readonly slots: Semaphore;

  constructor(@InjectConfig() private readonly config: AppConfig) {
    this.slots = new Semaphore(config.email.attachments.fetchConcurrency);
  }

  /** Runs `send` with the attachments' bytes; EgressError names the file that could not be had. */
  async withAttachments<T>(
    attachments: readonly Attachment[],
    send: (files: MailAttachment[]) => Promise<T>,
  ): Promise<T> {
    const { maxBytesPerEmail } = this.config.email.attachments;
    const budget: ByteBudget = { remaining: maxBytesPerEmail };
    const inline = attachments.filter((a) => a.content !== undefined);
    budget.remaining -= inline.reduce((sum, a) => sum + base64Bytes(a.content ?? ''), 0);
    if (budget.remaining < 0) throw tooLarge(maxBytesPerEmail);
    if (inline.length === attachments.length) return send(attachments.map(decodeInline));
    return this.slots.run(async () => {
      const files = await Promise.all(
        attachments.map((a) =>
          a.content !== undefined ? Promise.resolve(decodeInline(a)) : this.fetch(a, budget),
        ),
      );
      return send(files);
    });
  }

  private async fetch(attachment: Attachment, budget: ByteBudget): Promise<MailAttachment> {
    try {
      const fetched = await safeFetch(attachment.url ?? '', {
        maxBytes: MAX_URL_ATTACHMENT_BYTES,
        deadlineMs: this.config.email.attachments.fetchTimeoutMs,
        allowPrivateNetworks: this.config.egress.allowPrivateNetworks,
        budget,
      });
      return {
        filename: attachment.filename,
        content: fetched.content,
        contentType: attachment.contentType ?? fetched.contentType,
      };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const reason =
        error instanceof EgressError
          ? error.message
          : `the download failed${typeof code === 'string' && /^E[A-Z_]+$/.test(code) ? ` (${code})` : ''}`;
      throw new EgressError(`"${attachment.filename}": ${reason}`);
    }
  }
}

const decodeInline = (attachment: Attachment): MailAttachment => ({
  filename: attachment.filename,
  content: Buffer.from(attachment.content ?? '', 'base64'),
  contentType: attachment.contentType,
});

const tooLarge = (limit: number) =>
  new EgressError(`the attachments together are larger than ${limit} bytes (EMAIL_ATTACHMENTS_MAX_MB)`);
