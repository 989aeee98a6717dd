import { Module } from '@nestjs/common';
import { ConsoleConfigController } from './console-config.controller';
import { ConsoleController } from './console.controller';
import { CONSOLE_BUILD_DIR, DEFAULT_CONSOLE_BUILD_DIR } from './console.tokens';

/** `/console`: the web console's build and its sign-in options. */
@Module({
  controllers: [ConsoleConfigController, ConsoleController],
  providers: [{ provide: CONSOLE_BUILD_DIR, useValue: DEFAULT_CONSOLE_BUILD_DIR }],
})
export class ConsoleModule {}
