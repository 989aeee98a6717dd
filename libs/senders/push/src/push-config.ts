import { parseApnsKey, parseFcmServiceAccount } from '@notify/domain';
import type { AppConfig } from '@notify/platform';

/** Start-up check of the default push credentials: a broken key fails the start, saying what is wrong. */
export function pushConfigProblems(config: AppConfig): string[] {
  const problems: string[] = [];
  const { fcmServiceAccount, apns } = config.push;
  try {
    if (fcmServiceAccount !== undefined) parseFcmServiceAccount(fcmServiceAccount);
  } catch (error) {
    problems.push(`FCM_SERVICE_ACCOUNT: ${(error as Error).message}`);
  }
  try {
    if (apns !== undefined)
      parseApnsKey({ KeyId: apns.keyId, TeamId: apns.teamId, Key: apns.key, Topic: apns.topic });
  } catch (error) {
    problems.push(`APNS_*: ${(error as Error).message}`);
  }
  return problems;
}
