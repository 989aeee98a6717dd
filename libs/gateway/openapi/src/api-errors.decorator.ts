import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse } from '@nestjs/swagger';
import { errorBodySchema, openApi } from './schema';

const body = openApi(errorBodySchema);

/** Every authenticated operation: bearer auth and the spec's error body on each failure status. */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiBearerAuth(),
    ...[400, 401, ...statuses, 500].map((status) =>
      ApiResponse({ status, description: 'Error', schema: body }),
    ),
  );
}
