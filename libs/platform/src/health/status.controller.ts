import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator';
import { errorBodySchema, openApi } from '../http/openapi-schema';

/** `GET /status`: public liveness for API clients (the pingram client reads `{message}`). */
@ApiTags('Health')
@Public()
@Controller()
export class StatusController {
  @Get('status')
  @ApiOperation({ summary: 'The service answers', operationId: 'healthCheck' })
  @ApiServiceUnavailableResponse({
    description: 'The service is overloaded; retry after Retry-After',
    schema: openApi(errorBodySchema),
  })
  @ApiOkResponse({
    schema: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
  })
  status(): { message: string } {
    return { message: 'ok' };
  }
}
