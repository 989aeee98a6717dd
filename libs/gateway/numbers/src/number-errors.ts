import { ConflictError, ForbiddenError, NotFoundError } from '@notify/util';

export const numberNotFound = (phoneNumber: string) =>
  new NotFoundError({
    code: 'PHONE_NUMBER_NOT_FOUND',
    message: `This account has no active number ${phoneNumber}.`,
    fix: 'List the account’s numbers with GET /numbers/list.',
  });

export const numberUnavailable = (phoneNumber: string) =>
  new ConflictError({
    code: 'PHONE_NUMBER_UNAVAILABLE',
    message: `${phoneNumber} is not available: another account holds it, or it is no longer on sale.`,
    fix: 'Search again with GET /numbers/available and order a number from the results.',
  });

export const numberReleasedMeanwhile = (phoneNumber: string) =>
  new ConflictError({
    code: 'PHONE_NUMBER_RELEASED',
    message: `${phoneNumber} was released while this order was placed, so the account does not hold it.`,
    fix: 'Order it again if the account should keep it.',
  });

export const numberLimitReached = (max: number) =>
  new ConflictError({
    code: 'PHONE_NUMBER_LIMIT',
    message: `This account holds ${max} active numbers, the most it may hold.`,
    fix: 'Release a number with DELETE /numbers/{phoneNumber} first. The operator sets the limit with MAX_PHONE_NUMBERS_PER_ACCOUNT.',
  });

/** Numbers are real and rented: a test environment, whose sends never leave the service, neither buys nor releases them. */
export function refuseTestEnvironment(caller: { readonly test: boolean }): void {
  if (caller.test)
    throw new ForbiddenError({
      code: 'TEST_ENVIRONMENT',
      message:
        'A test environment does not order or release phone numbers: they are real numbers, rented on the deployment’s Twilio account.',
      fix: 'Use a key of a live environment of the account (a member: ?envId= of one). A test environment sends from the sandbox number +15005550006.',
    });
}
