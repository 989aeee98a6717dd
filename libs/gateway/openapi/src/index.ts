export { ApiEndUserErrors, ApiErrors, ApiMoreErrors, ApiPathParam } from './api-errors.decorator';
export { openApiDocument, serveOpenApi } from './openapi.document';
export { OPERATOR_SCHEME } from './security-schemes';
export { errorBodySchema, openApi } from '@notify/platform';
export { namedSchema } from '@notify/util';
export { messageResponseSchema } from './responses';
