import type { NotificationType } from '../notification-types/notification-type';
import type { SendRequested } from '../sends/send-request';
import { quietUntil } from '../time/quiet-hours';
import type { UserFields } from '../users/user';

export interface Hold {
  /** When the send goes out: its schedule, or the end of the quiet hours it arrived in. */
  readonly heldUntil?: number;
  /** Whether routing holds it now (a released send was held once already and goes out). */
  readonly held: boolean;
}

/**
 * Whether a send waits, and until when. A scheduled send waits for its schedule. One that arrives
 * in the user's quiet hours (theirs, else the type's) waits for their end, unless its type is
 * urgent. A send the scheduler released was held once already: it goes out now.
 */
export function holdFor(
  request: Pick<SendRequested, 'send' | 'released'>,
  type: Pick<NotificationType, 'quietHours' | 'urgent'>,
  user: Pick<UserFields, 'quietHours' | 'timezone'>,
  now: number,
): Hold {
  const released = request.released === true;
  const quiet = user.quietHours ?? type.quietHours;
  const quietEnd =
    released || request.send.scheduledFor !== undefined || quiet === undefined || type.urgent === true
      ? undefined
      : quietUntil(now, quiet, user.timezone);
  const heldUntil = quietEnd ?? request.send.scheduledFor;
  return heldUntil === undefined ? { held: false } : { heldUntil, held: !released };
}
