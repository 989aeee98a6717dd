import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { type User, userIdSchema } from '@notify/domain';
import { ZodPipe } from '@notify/platform';
import { UserRepository } from '@notify/store';
import { z } from 'zod';
import { CurrentTenant, type Tenant } from '@notify/gateway-auth';
import { ApiErrors, ApiPathParam, messageResponseSchema, openApi } from '@notify/gateway-openapi';
import { DeleteUserUseCase } from './delete-user.usecase';
import { type IdentifyBody, identifySchema, IdentifyUserUseCase } from './identify-user.usecase';
import { userSchema } from './user.presenter';

const userIdPipe = new ZodPipe(userIdSchema);
const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1_000).default(100),
  // The pingram client always sends nextToken; an empty one means the first page.
  nextToken: z
    .string()
    .max(1_024)
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
});
const userOk = { schema: openApi(userSchema, 'output') };

@ApiTags('Users')
@ApiErrors()
@Controller('users')
export class UsersController {
  constructor(
    private readonly users: UserRepository,
    private readonly deleteUser: DeleteUserUseCase,
    private readonly identifyUser: IdentifyUserUseCase,
  ) {}

  @Get()
  @ApiOperation({ summary: 'List users', operationId: 'listUsers' })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 1_000 } })
  @ApiQuery({ name: 'nextToken', required: false, schema: { type: 'string', maxLength: 1_024 } })
  @ApiOkResponse({
    schema: openApi(
      z.object({ users: z.array(userSchema), hasMore: z.boolean(), lastEvaluatedKey: z.string().optional() }),
      'output',
    ),
  })
  async list(
    @CurrentTenant() tenant: Tenant,
    @Query(new ZodPipe(listQuerySchema)) query: z.infer<typeof listQuerySchema>,
  ) {
    const page = await this.users.list(tenant, query.limit, query.nextToken);
    return {
      users: page.users,
      hasMore: page.next !== undefined,
      ...(page.next ? { lastEvaluatedKey: page.next } : {}),
    };
  }

  @Post(':userId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Identify: create or update a user', operationId: 'identify' })
  @ApiPathParam('userId', userIdSchema)
  @ApiBody({ schema: openApi(identifySchema) })
  @ApiOkResponse(userOk)
  identify(
    @CurrentTenant() tenant: Tenant,
    @Param('userId', userIdPipe) userId: string,
    @Body(new ZodPipe(identifySchema)) body: IdentifyBody,
  ): Promise<User> {
    return this.identifyUser.execute(tenant, userId, body);
  }

  /** Every user exists implicitly: an unknown id answers with just the id (as the reference does). */
  @Get(':userId')
  @ApiOperation({ summary: 'Get a user', operationId: 'getUser' })
  @ApiPathParam('userId', userIdSchema)
  @ApiOkResponse(userOk)
  async get(@CurrentTenant() tenant: Tenant, @Param('userId', userIdPipe) userId: string): Promise<User> {
    return (await this.users.get(tenant, userId)) ?? { id: userId };
  }

  @Delete(':userId')
  @ApiOperation({ summary: 'Delete a user and all associated data', operationId: 'deleteUser' })
  @ApiPathParam('userId', userIdSchema)
  @ApiOkResponse({ schema: openApi(messageResponseSchema, 'output') })
  async delete(
    @CurrentTenant() tenant: Tenant,
    @Param('userId', userIdPipe) userId: string,
  ): Promise<{ message: string }> {
    await this.deleteUser.execute(tenant, userId);
    return { message: 'User deleted' };
  }
}
