import { Injectable } from '@nestjs/common';
import type { DeliveryJob } from '@notify/domain';
import type { WebClient } from '@slack/web-api';
import { ProviderResolver } from '../provider-resolver';
import { SlackApps } from './slack-apps';

/** The Slack Web API client a job posts with (against the sandbox peer for a test environment). */
@Injectable()
export class SlackResolver {
  constructor(
    private readonly resolver: ProviderResolver,
    private readonly apps: SlackApps,
  ) {}

  client(job: DeliveryJob, token: string | undefined): Promise<WebClient> {
    return this.resolver.resolve(job, {
      sandbox: async (sandbox) => this.apps.client(token, job.trackingId, await sandbox.slackApiUrl()),
      real: async () => this.apps.client(token, job.trackingId),
    });
  }
}
