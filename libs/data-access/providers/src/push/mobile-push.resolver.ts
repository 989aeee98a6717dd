import { Injectable } from '@nestjs/common';
import type { ApnsKey, DeliveryJob } from '@notify/domain';
import { ProviderResolver } from '../provider-resolver';
import type { ApnsClient } from './apns-client';
import type { FcmClient } from './fcm-client';
import { PushClients } from './push-clients';

/** An APNs key and its client per gateway (production, or the sandbox of development builds). */
export interface ResolvedApns {
  readonly key: ApnsKey;
  client(production: boolean): ApnsClient;
}

/** The FCM and APNs clients a job pushes with (the sandbox peers' for a test environment). */
@Injectable()
export class MobilePushResolver {
  constructor(
    private readonly resolver: ProviderResolver,
    private readonly clients: PushClients,
  ) {}

  fcm(job: DeliveryJob): Promise<FcmClient | undefined> {
    return this.resolver.resolve<FcmClient | undefined>(job, {
      sandbox: async (sandbox) => {
        const { account, peer } = await sandbox.fcm();
        return this.clients.fcmClient(job, account, peer);
      },
      real: async () => {
        const account = await this.clients.fcmAccountOf(job);
        return account === undefined ? undefined : this.clients.fcmClient(job, account);
      },
    });
  }

  apns(job: DeliveryJob): Promise<ResolvedApns | undefined> {
    return this.resolver.resolve<ResolvedApns | undefined>(job, {
      sandbox: async (sandbox) => {
        const { key, peer } = await sandbox.apns();
        return { key, client: (production) => this.clients.apnsClient(job, key, production, peer) };
      },
      real: async () => {
        const key = await this.clients.apnsKeyOf(job);
        return key === undefined
          ? undefined
          : { key, client: (production) => this.clients.apnsClient(job, key, production) };
      },
    });
  }
}
