import { z } from 'zod';

/**
 * Names a schema in the OpenAPI document (`components.schemas.<name>`), wherever it is used.
 * Named where the schema is defined, so every conversion sees the name whatever the import order;
 * names follow the pingram client's models where it has one for the shape. Two different shapes
 * under one name stop the document from being built.
 */
export function namedSchema<T extends z.ZodType>(name: string, schema: T): T {
  z.globalRegistry.add(schema, { id: name });
  return schema;
}
