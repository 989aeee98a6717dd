import { InvalidRequestError } from '@notify/util';

/** A configured cap on stored resources was reached (a leaked key must not be able to mint keys without end). */
export const limitReached = (what: string, variable: string, fix: string) =>
  new InvalidRequestError({
    code: 'LIMIT_REACHED',
    message: `The limit of ${what} is reached.`,
    fix: `${fix} The operator sets the limit with ${variable}.`,
  });
