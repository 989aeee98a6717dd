import { Injectable } from '@nestjs/common';
import {
  InvalidPhoneNumberError,
  normalizePhoneNumber,
  type TenantScope,
  type User,
  userFieldsSchema,
  userIdSchema,
} from '@notify/domain';
import { InjectClock } from '@notify/platform';
import { type Clock, InvalidRequestError, namedSchema } from '@notify/util';
import { UserRepository } from '@notify/store';
import type { z } from 'zod';

export const identifySchema = userFieldsSchema.extend({ id: userIdSchema.optional() });
// Named in the OpenAPI document as the pingram client names the shape.
namedSchema('PostUserRequest', identifySchema);
export type IdentifyBody = z.infer<typeof identifySchema>;

/** Identify (`POST /users/{userId}`), for the server API and the browser client alike. */
@Injectable()
export class IdentifyUserUseCase {
  constructor(
    private readonly users: UserRepository,
    @InjectClock() private readonly clock: Clock,
  ) {}

  execute(scope: TenantScope, userId: string, body: IdentifyBody): Promise<User> {
    const { id, ...fields } = body;
    if (id !== undefined && id !== userId) {
      throw new InvalidRequestError({
        code: 'USER_ID_MISMATCH',
        message: `The body's id "${id}" differs from the path's "${userId}".`,
        fix: 'Omit id from the body or make it match the path.',
      });
    }
    // Stored in E.164, so every later send and inbound match sees one form of the number.
    const number = fields.number === undefined ? undefined : normalizePhoneNumber(fields.number);
    if (fields.number !== undefined && number === undefined)
      throw new InvalidPhoneNumberError('number', fields.number);
    return this.users.identify(
      scope,
      userId,
      number === undefined ? fields : { ...fields, number },
      new Date(this.clock.now()).toISOString(),
    );
  }
}
