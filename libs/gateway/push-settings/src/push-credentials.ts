import {
  type ApnsKey,
  apnsKeySetting,
  type FcmServiceAccount,
  fcmServiceAccountSetting,
  maskedApnConfig,
  maskedFcmConfig,
} from '@notify/domain';
import { NotFoundError } from '@notify/util';

/** Each push credential of an environment: its provider setting, how the API shows it, and what a missing one says. */
export const PUSH_CREDENTIALS = {
  fcm: {
    setting: fcmServiceAccountSetting,
    view: (account: FcmServiceAccount) => ({ fcmConfig: maskedFcmConfig(account) }),
    missing: { what: 'FCM configuration', fix: 'PUT /settings/push/fcm {"fcmConfig": "<key file JSON>"}.' },
  },
  apn: {
    setting: apnsKeySetting,
    view: (key: ApnsKey) => maskedApnConfig(key),
    missing: { what: 'APNs configuration', fix: 'PUT /settings/push/apn {KeyId, Key, TeamId, Topic}.' },
  },
} as const;

export type PushCredential = keyof typeof PUSH_CREDENTIALS;
/** What the API answers of a credential: its secret masked. */
export type PushCredentialView<C extends PushCredential> = ReturnType<(typeof PUSH_CREDENTIALS)[C]['view']>;

/** 404 for what an environment lacks. */
export const none = (what: string, fix: string) =>
  new NotFoundError({ code: 'NOT_FOUND', message: `This environment has no ${what}.`, fix });
