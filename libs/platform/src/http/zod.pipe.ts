import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { z, type ZodType } from 'zod';

/**
 * Validates a body, query or param with a zod schema; a failure is a ZodError, which the exception
 * filter answers with 400 VALIDATION_ERROR naming each field (a path parameter by its name). The
 * same schemas validate bus messages.
 */
export class ZodPipe<T> implements PipeTransform<unknown, T> {
  constructor(private readonly schema: ZodType<T>) {}

  transform(value: unknown, metadata?: ArgumentMetadata): T {
    const result = this.schema.safeParse(value ?? {});
    if (result.success) return result.data;
    const name = metadata?.type === 'param' && metadata.data !== undefined ? [metadata.data] : [];
    throw new z.ZodError(result.error.issues.map((issue) => ({ ...issue, path: [...name, ...issue.path] })));
  }
}
