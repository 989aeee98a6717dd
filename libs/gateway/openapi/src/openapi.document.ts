import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, type SchemaObject, SwaggerModule } from '@nestjs/swagger';
import { errorBodySchema, openApi } from '@notify/platform';
import { isDeepStrictEqual } from 'node:util';
import { API_KEY_SCHEME, END_USER_SCHEME, JWT_SCHEME, OPERATOR_SCHEME } from './security-schemes';

const DEFS = '#/$defs/';
const COMPONENTS = '#/components/schemas/';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;

/**
 * Moves the named schemas that zod emits as each schema's own `$defs` into `components.schemas`
 * and points every `$ref` there: one definition per name for the whole document. Two different
 * shapes under one name are a mistake in the code and stop the document from being built.
 */
export function hoistNamedSchemas(document: OpenAPIObject): void {
  const schemas: Json = { ...(document.components?.schemas ?? {}) };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!isObject(node)) return;
    const defs = node.$defs;
    if (isObject(defs)) {
      delete node.$defs;
      for (const [name, schema] of Object.entries(defs)) {
        visit(schema);
        if (name in schemas && !isDeepStrictEqual(schemas[name], schema))
          throw new Error(`OpenAPI: two different schemas are named ${name}`);
        schemas[name] = schema;
      }
    }
    if (typeof node.$ref === 'string' && node.$ref.startsWith(DEFS))
      node.$ref = COMPONENTS + node.$ref.slice(DEFS.length);
    Object.values(node).forEach(visit);
  };
  visit(document.paths);
  document.components = {
    ...document.components,
    schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))) as Record<
      string,
      SchemaObject
    >,
  };
}

/**
 * Any request body larger than BODY_LIMIT_MB is refused with 413 before a handler runs, so every
 * operation that takes a body documents 413, and none without one does.
 */
export function documentBodyLimit(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths))
    for (const operation of Object.values(item as Json)) {
      if (!isObject(operation) || !isObject(operation.responses) || operation.requestBody === undefined)
        continue;
      operation.responses = Object.fromEntries(
        Object.entries({
          ...operation.responses,
          413: {
            description: 'Request body larger than BODY_LIMIT_MB (or an inline attachment too large)',
            content: { 'application/json': { schema: openApi(errorBodySchema) } },
          },
        }).sort(([a], [b]) => a.localeCompare(b)),
      );
    }
}

/** The OpenAPI 3.1 document of the API, generated from the controllers (committed as docs/openapi.json). */
export function openApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Notify API')
    .setDescription(
      'Send a notification to one user over email, SMS, voice, push, web push, in-app or Slack; read every step of every delivery. Compatible with the pingram client.',
    )
    .setVersion('1')
    // Paths are relative to wherever the service is reached (PUBLIC_URL behind a proxy).
    .addServer('/', 'This service: its own address, or PUBLIC_URL when it is reached through a proxy')
    .addSecurity(API_KEY_SCHEME, {
      type: 'http',
      scheme: 'bearer',
      description:
        "A secret API key of one environment (`notify_sk_…`, an opaque string, not a JWT): `Authorization: Bearer <key>`. The older SDKs' `Basic base64(clientId:clientSecret)` is accepted too. Public keys (`notify_pk_…`) are refused here (403): they stand in for the client id on the browser routes only.",
    })
    .addSecurity(JWT_SCHEME, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description:
        "A member's JWT from the organisation's identity provider (HS256 with JWT_SECRET, or RS256/ES256 from JWT_JWKS_URL), naming the person by `sub` and `email`; the member's role in the account decides what they may do (403 FORBIDDEN otherwise). Environment-scoped operations need `?envId=`.",
    })
    .addSecurity(END_USER_SCHEME, {
      type: 'http',
      scheme: 'basic',
      description:
        'Browser client, one end user: `Authorization: Basic base64(clientId:userId:hashedUserId)`, where clientId is the environment id or a public key of it (`notify_pk_…`); hashedUserId is base64(HMAC-SHA256(environment secret, userId)), required in secure mode and checked whenever given',
    })
    .addSecurity(OPERATOR_SCHEME, {
      type: 'http',
      scheme: 'bearer',
      description:
        "The service operator's token (`OPERATOR_TOKEN`), on the operator routes only; tenants' keys and JWTs open nothing there. Unset, those routes answer 404.",
    })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller, method) => method,
  });
  documentBodyLimit(document);
  hoistNamedSchemas(document);
  return document;
}

/** Serves the document at /docs (UI) and /docs/json. */
export function serveOpenApi(app: INestApplication, document: OpenAPIObject): void {
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/json', yamlDocumentUrl: 'docs/yaml' });
}
