import type { PipeTransform } from '@nestjs/common';
import type { ZodType } from 'zod';

/**
 * Validates a body, query or param with a zod schema; a failure is a ZodError, which the exception
 * filter answers with 400 VALIDATION_ERROR naming each field. The same schemas validate bus messages.
 */
export class ZodPipe<T> implements PipeTransform<unknown, T> {
  constructor(private readonly schema: ZodType<T>) {}

  transform(value: unknown): T {
    return this.schema.parse(value ?? {});
  }
}
