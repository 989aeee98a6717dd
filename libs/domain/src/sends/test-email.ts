import { namedSchema } from '@notify/util';
import { z } from 'zod';
import { sampleParameters } from '../rendering/sample-parameters';
import { Limits } from '../validation/limits';
import { directEmailBodySchema, emailAddressSchema } from './send-body';
import { normalizeDirectEmail, type NormalizedSend, type SendLimits } from './send-request';

/** An empty sender field (the pingram client requires both) means the environment's default. */
const emptyIsDefault = (value: string | undefined) => (value === '' ? undefined : value);

/**
 * `POST /sender/test/email` (the pingram client's PostEmailTestRequest): content to try before
 * saving it as a template, bounded as a direct email's.
 */
export const testEmailBodySchema = namedSchema(
  'PostEmailTestRequest',
  z.object({
    notificationId: z.string().min(1).max(Limits.id),
    to: emailAddressSchema,
    subject: directEmailBodySchema.shape.subject,
    html: directEmailBodySchema.shape.html,
    fromAddress: z
      .union([z.literal(''), emailAddressSchema])
      .optional()
      .transform(emptyIsDefault),
    fromName: directEmailBodySchema.shape.fromName.transform(emptyIsDefault),
    previewText: directEmailBodySchema.shape.previewText,
  }),
);
export type TestEmailBody = z.output<typeof testEmailBodySchema>;

/**
 * The send a test email makes: a direct email of the notification type to `to`, whose merge tags
 * render with sample values (each tag's own name in brackets) through the pipeline's renderer.
 */
export function normalizeTestEmail(
  body: TestEmailBody,
  receivedAt: number,
  limits: SendLimits,
): NormalizedSend {
  const parameters = sampleParameters([
    { field: 'subject', source: body.subject },
    { field: 'html', source: body.html },
    { field: 'previewText', source: body.previewText },
  ]);
  const send = normalizeDirectEmail(
    {
      type: body.notificationId,
      to: body.to,
      subject: body.subject,
      html: body.html,
      fromAddress: body.fromAddress,
      fromName: body.fromName,
      previewText: body.previewText,
    },
    receivedAt,
    limits,
  );
  return { ...send, parameters };
}
