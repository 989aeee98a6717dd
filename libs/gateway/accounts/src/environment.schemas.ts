import {
  channelSchema,
  type ProviderSettingKind,
  slackAppSetting,
  smtpRelaySetting,
  twilioAccountSetting,
} from '@notify/domain';
import { z } from 'zod';

/** A new environment of the caller's account. */
export const createEnvironmentSchema = z.object({
  title: z.string().min(1).max(200),
  test: z.boolean().optional(),
});
export type CreateEnvironmentBody = z.infer<typeof createEnvironmentSchema>;

/** Changes to the caller's environment; a setting left out stays as it is. */
export const patchEnvironmentSchema = z.object({
  title: z.string().min(1).max(200).optional(),
  resetSecret: z.boolean().optional(),
  secureMode: z.boolean().optional(),
  disableSending: z.array(channelSchema).max(20).optional(),
  /** Email open and click tracking (pixel, rewritten links); on unless turned off. */
  emailTracking: z.boolean().optional(),
  /** The environment's own SMTP relay (smtp:// or smtps://, no options); null returns to the default. */
  smtpUrl: z.string().max(2_048).nullable().optional(),
  /** The environment's own Twilio account ({accountSid, authToken, fromNumber?, messagingServiceSid?, numbers?}); null returns to the default. */
  twilio: z.record(z.string(), z.unknown()).nullable().optional(),
  /** The environment's own Slack app ({clientId, clientSecret}); null returns to the default. */
  slack: z.record(z.string(), z.unknown()).nullable().optional(),
});
export type PatchEnvironmentBody = z.infer<typeof patchEnvironmentSchema>;

/** The provider settings an environment may have of its own, each under its field (`smtpUrl`, `twilio`, `slack`). */
export const ENVIRONMENT_SETTINGS: readonly ProviderSettingKind<unknown>[] = [
  smtpRelaySetting,
  twilioAccountSetting,
  slackAppSetting,
];
