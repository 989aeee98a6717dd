import { Inject } from '@nestjs/common';
import { basename, join } from 'node:path';

export const CONSOLE_BUILD_DIR = Symbol('CONSOLE_BUILD_DIR');
export const InjectConsoleBuildDir = () => Inject(CONSOLE_BUILD_DIR);

/**
 * The console's build, `dist/apps/console`. Four levels up from here is the repository in the sources
 * (libs/gateway/console/src) and `dist` itself in the build (dist/libs/gateway/console/src), where the
 * image keeps the console's build too.
 */
const top = join(__dirname, '..', '..', '..', '..');
export const DEFAULT_CONSOLE_BUILD_DIR =
  basename(top) === 'dist' ? join(top, 'apps', 'console') : join(top, 'dist', 'apps', 'console');
