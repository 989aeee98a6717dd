import { type Composition, failed } from '../routing/channel-strategy';
import type { NormalizedSend } from '../sends/send-request';
import type { UserFields } from '../users/user';
import { type PhoneNumber, parsePhoneNumber } from './phone-number';

/**
 * The number an SMS or a call goes to: the one the send gave (refused if it is not a number, even
 * when an older valid one is stored), else the stored one, normalized again (records written
 * before numbers were normalized may hold any text).
 */
export function recipientNumber(send: NormalizedSend, user: UserFields): PhoneNumber | Composition {
  if (send.invalidNumber !== undefined)
    return failed('INVALID_PHONE_NUMBER', `to.number "${send.invalidNumber}" is not a valid phone number`);
  if (user.number === undefined) return failed('MISSING_SMS_RECIPIENT', 'the user has no phone number');
  return (
    parsePhoneNumber(user.number) ??
    failed('INVALID_PHONE_NUMBER', `the user's number "${user.number}" is not a valid phone number`)
  );
}

export const isComposition = (value: PhoneNumber | Composition): value is Composition => 'kind' in value;
