import { z } from 'zod';
import type { ComponentSources } from '../components/component';
import type { TemplateRenderer } from '../rendering/template-renderer';
import { deliveryJobSchema } from '../sends/delivery-job';
import { attachmentSchema } from '../sends/send-body';
import type { NormalizedSend } from '../sends/send-request';
import type { Template } from '../templates/template';

/** What the router hands the email sender: everything needed to send, already rendered. */
export const emailJobSchema = deliveryJobSchema.extend({
  to: z.string().optional(),
  subject: z.string().optional(),
  html: z.string().optional(),
  previewText: z.string().optional(),
  fromAddress: z.string().optional(),
  fromName: z.string().optional(),
  replyTo: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  attachments: z.array(attachmentSchema),
  /** Why the content may be incomplete (e.g. a template that does not exist), for the log. */
  note: z.string().optional(),
  /** Track opens and clicks (the environment's switch); absent on jobs routed before it existed: on. */
  track: z.boolean().optional(),
});
export type EmailJob = z.infer<typeof emailJobSchema>;

export type EmailContent = Pick<
  EmailJob,
  'subject' | 'html' | 'previewText' | 'fromAddress' | 'fromName' | 'note'
>;

/**
 * The email of a send: inline content wins, else the chosen or default template,
 * rendered with the send's parameters. The subject and sender are text; the HTML escapes values
 * and may use the environment's components (`{{> componentId}}`).
 */
export function composeEmail(
  send: NormalizedSend,
  template: Template | undefined,
  renderer: TemplateRenderer,
  missingTemplateId?: string,
  components?: ComponentSources,
): EmailContent {
  const source = send.email ?? template;
  // Stored templates are compiled once and cached; inline content is rendered for this send only.
  const cache = send.email === undefined;
  const text = (value: string | undefined, field: string) =>
    value === undefined ? undefined : renderer.render(value, send.parameters, { html: false, field, cache });
  const content: EmailContent = {
    subject: text(source?.subject, 'email.subject'),
    html:
      source?.html === undefined
        ? undefined
        : renderer.render(source.html, send.parameters, {
            html: true,
            field: 'email.html',
            cache,
            ...(components !== undefined ? { partials: components } : {}),
          }),
    previewText: text(source?.previewText, 'email.previewText'),
    fromAddress: send.options?.email?.fromAddress ?? text(source?.senderEmail, 'email.senderEmail'),
    fromName: send.options?.email?.fromName ?? text(source?.senderName, 'email.senderName'),
  };
  if (send.email === undefined && template === undefined) {
    content.note =
      missingTemplateId === undefined
        ? 'no inline email content and no default EMAIL template for this notification'
        : `no inline email content and template "${missingTemplateId}" does not exist for EMAIL`;
  }
  return content;
}
