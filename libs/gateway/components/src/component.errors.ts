import { NotFoundError } from '@notify/util';

export const componentNotFound = (componentId: string) =>
  new NotFoundError({
    code: 'NOT_FOUND',
    message: `No component "${componentId}" in this environment.`,
    fix: 'List them with GET /components.',
  });
