import { type DynamicModule, Module } from '@nestjs/common';
import { MeteringModule } from '@notify/billing-feature';
import { BusModule } from '@notify/bus';
import { CoordinationModule } from '@notify/cache';
import { DeliveryEventsModule } from '@notify/delivery-events';
import { EventLogModule } from '@notify/event-log';
import { GatewayModule } from '@notify/gateway-feature';
import { InboundModule } from '@notify/inbound-feature';
import { DevInboxModule, DevOutboxModule } from '@notify/gateway-dev-outbox';
import type { DnsZone } from '@notify/local-peer-dns';
import type { OutboxSource } from '@notify/local-peer-kit';
import { type AppConfig, type Logger, PlatformModule } from '@notify/platform';
import { ProviderSettingsModule } from '@notify/provider-settings';
import { RecorderModule } from '@notify/recorder-feature';
import { RouterModule } from '@notify/router-feature';
import { SchedulerModule } from '@notify/scheduler-feature';
import { CallSenderModule } from '@notify/sender-call-feature';
import { EmailSenderModule } from '@notify/sender-email-feature';
import { InAppSenderModule } from '@notify/sender-inapp-feature';
import { PushSenderModule } from '@notify/sender-push-feature';
import { SlackSenderModule } from '@notify/sender-slack-feature';
import { SmsSenderModule } from '@notify/sender-sms-feature';
import { WebPushSenderModule } from '@notify/sender-web-push-feature';
import { StoreModule } from '@notify/store';
import { WebhookDispatcherModule } from '@notify/webhooks-feature';

/**
 * Every service module in one process, on the embedded adapters unless configured otherwise. The
 * demo inbox page exists with DEV_MODE only; `/dev/outbox` always does, since test environments
 * read their sandbox outbox there in every topology (other environments only with local peers).
 */
@Module({})
export class AllInOneModule {
  static forRoot(
    config: AppConfig,
    logger: Logger,
    outboxes: readonly OutboxSource[],
    dnsZone?: DnsZone,
  ): DynamicModule {
    return {
      module: AllInOneModule,
      imports: [
        PlatformModule.forRoot(config, logger),
        BusModule.forRoot(),
        StoreModule.forRoot(),
        ProviderSettingsModule,
        CoordinationModule.forRoot(),
        EventLogModule.forRoot(),
        DeliveryEventsModule,
        GatewayModule,
        InboundModule,
        RouterModule,
        SchedulerModule,
        EmailSenderModule,
        InAppSenderModule,
        SmsSenderModule,
        CallSenderModule,
        SlackSenderModule,
        PushSenderModule,
        WebPushSenderModule,
        RecorderModule,
        MeteringModule,
        WebhookDispatcherModule,
        DevOutboxModule.forRoot(outboxes, dnsZone),
        ...(config.dev.enabled ? [DevInboxModule] : []),
      ],
    };
  }
}
