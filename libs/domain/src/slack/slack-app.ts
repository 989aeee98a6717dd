import { maskSecret } from '@notify/util';
import { z } from 'zod';
import { InvalidProviderSettingError, type ProviderSettingKind } from '../provider-settings/provider-setting';

/** An environment's own Slack app: what users' OAuth codes are exchanged and tokens refreshed with. */
export interface SlackApp {
  readonly clientId: string;
  readonly clientSecret: string;
}

export const slackAppSchema = z.strictObject({
  clientId: z.string().regex(/^[0-9]+\.[0-9]+$/),
  clientSecret: z.string().regex(/^[0-9a-fA-F]{16,64}$/),
}) satisfies z.ZodType<SlackApp>;

const FIX = 'Give {clientId: "1234.5678", clientSecret: "…"} from your Slack app\'s Basic Information page.';

export function parseSlackApp(input: unknown): SlackApp {
  const given = z
    .strictObject({ clientId: z.string().max(64), clientSecret: z.string().max(128) })
    .safeParse(input);
  if (!given.success)
    throw new InvalidProviderSettingError('slack', given.error.issues[0]?.message ?? 'not an object', FIX);
  if (!/^[0-9]+\.[0-9]+$/.test(given.data.clientId))
    throw new InvalidProviderSettingError('slack.clientId', 'expected digits, a dot and digits', FIX);
  if (!/^[0-9a-fA-F]{16,64}$/.test(given.data.clientSecret))
    throw new InvalidProviderSettingError('slack.clientSecret', 'expected 16 to 64 hex digits', FIX);
  return given.data;
}

export const slackAppSetting: ProviderSettingKind<SlackApp> = {
  name: 'slack',
  field: 'slack',
  parse: parseSlackApp,
  stored: slackAppSchema,
  destinations: () => [],
  present: (app) => `${app.clientId}, secret ${maskSecret(app.clientSecret)}`,
};
