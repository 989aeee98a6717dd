import type { SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';

/**
 * OpenAPI schema of a zod schema: the documented shape is the validated shape, from one source.
 * (OpenAPI 3.1 uses JSON Schema 2020-12, which zod emits.)
 */
export function openApi(schema: z.ZodType, io: 'input' | 'output' = 'input'): SchemaObject {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return json as SchemaObject;
}

export const errorBodySchema = z.object({
  trackingId: z.string(),
  error: z.object({
    code: z.string(),
    message: z.string(),
    fix: z.string().optional(),
    provider: z.string().optional(),
    providerCode: z.string().optional(),
  }),
});
