export { ApiEndUserErrors, ApiErrors, ApiMoreErrors, ApiPathParam } from './api-errors.decorator';
export { openApiDocument, serveOpenApi } from './openapi.document';
export { errorBodySchema, namedSchema, openApi } from '@notify/platform';
export { messageResponseSchema } from './responses';
