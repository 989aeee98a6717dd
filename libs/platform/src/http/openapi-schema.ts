import type { SchemaObject } from '@nestjs/swagger';
import { namedSchema } from '@notify/util';
import { z } from 'zod';

/**
 * OpenAPI schema of a zod schema: the documented shape is the validated shape, from one source.
 * (OpenAPI 3.1 uses JSON Schema 2020-12, which zod emits.) A schema named with `namedSchema`
 * becomes `$ref: "#/$defs/<name>"` with its definition under `$defs`; the document builder moves
 * those definitions to `components.schemas`, so generated clients get one named type per shape.
 */
export function openApi(schema: z.ZodType, io: 'input' | 'output' = 'input'): SchemaObject {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return json as SchemaObject;
}

/** The error body every failure answers with (`ApiErrorResponse` and `ApiErrorBody` in pingram). */
export const errorBodySchema = namedSchema(
  'ApiErrorResponse',
  z.object({
    trackingId: z.string(),
    error: namedSchema(
      'ApiErrorBody',
      z.object({
        code: z.string(),
        message: z.string(),
        fix: z.string().optional(),
        provider: z.string().optional(),
        providerCode: z.string().optional(),
      }),
    ),
  }),
);
