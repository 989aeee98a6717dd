export { ApiEndUserErrors, ApiErrors, ApiMoreErrors, ApiPathParam } from './api-errors.decorator';
export { openApiDocument, serveOpenApi } from './openapi.document';
export { errorBodySchema, openApi } from './schema';
