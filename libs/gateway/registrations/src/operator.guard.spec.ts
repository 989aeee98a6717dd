import type { ExecutionContext } from '@nestjs/common';
import { loadAppConfig } from '@notify/platform';
import { NotFoundError, UnauthorizedError } from '@notify/util';
import { OperatorGuard } from './operator.guard';

const TOKEN = 'operator-token-of-at-least-32-characters';

const withHeader = (authorization?: string) =>
  ({
    switchToHttp: () => ({
      getRequest: () => ({ headers: authorization === undefined ? {} : { authorization } }),
    }),
  }) as unknown as ExecutionContext;

describe('OperatorGuard', () => {
  const guard = new OperatorGuard(loadAppConfig({ OPERATOR_TOKEN: TOKEN }));

  it('lets the operator token through', () => {
    expect(guard.canActivate(withHeader(`Bearer ${TOKEN}`))).toBe(true);
    expect(guard.canActivate(withHeader(`bearer   ${TOKEN}`))).toBe(true);
  });

  it.each([
    undefined,
    '',
    'Bearer',
    `Bearer ${TOKEN}x`,
    `Bearer ${TOKEN.slice(1)}`,
    `Basic ${TOKEN}`,
    'Bearer notify_sk_x',
  ])('refuses %p with 401', (header) => {
    expect(() => guard.canActivate(withHeader(header))).toThrow(UnauthorizedError);
  });

  it('without OPERATOR_TOKEN the routes answer 404 whatever is sent', () => {
    const absent = new OperatorGuard(loadAppConfig({}));
    expect(() => absent.canActivate(withHeader(`Bearer ${TOKEN}`))).toThrow(NotFoundError);
  });

  it('refuses a configured token shorter than 32 characters at start-up', () => {
    expect(() => loadAppConfig({ OPERATOR_TOKEN: 'short' })).toThrow(/OPERATOR_TOKEN/);
  });
});
