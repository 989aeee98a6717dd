export { ApiErrors } from './api-errors.decorator';
export { openApiDocument, serveOpenApi } from './openapi.document';
export { errorBodySchema, openApi } from './schema';
