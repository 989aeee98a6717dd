import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator';

/** `GET /status`: public liveness for API clients (the pingram client reads `{message}`). */
@ApiTags('Health')
@Public()
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
