import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';

/** `GET /status`: public liveness for API clients (the pingram client reads `{message}`). */
@ApiTags('Health')
@Controller()
export class StatusController {
  @Get('status')
  @ApiOkResponse({
    schema: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
  })
  status(): { message: string } {
    return { message: 'ok' };
  }
}
