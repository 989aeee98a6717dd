import { ConflictError, NotFoundError } from '@notify/util';

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
