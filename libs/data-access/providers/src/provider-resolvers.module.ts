import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { ProviderResolver } from './provider-resolver';
import { ProvidersModule } from './providers.module';
import { MobilePushResolver } from './push/mobile-push.resolver';
import { WebPushResolver } from './push/web-push.resolver';
import { SlackResolver } from './slack/slack.resolver';
import { SmtpResolver } from './smtp/smtp.resolver';
import { TwilioResolver } from './twilio/twilio.resolver';

const resolvers = [
  ProviderResolver,
  TwilioResolver,
  SlackResolver,
  SmtpResolver,
  MobilePushResolver,
  WebPushResolver,
];

/** Each channel's provider resolver, over the real providers and the given sandbox (a module exporting SANDBOX_PROVIDERS). */
@Module({})
export class ProviderResolversModule {
  static withSandbox(sandbox: Type): DynamicModule {
    return {
      module: ProviderResolversModule,
      imports: [ProvidersModule, sandbox],
      providers: resolvers,
      exports: resolvers,
    };
  }
}
