import { PaymentRequiredError } from '@notify/util';

export interface ScheduledSendLimits {
  /** Scheduled sends one environment may have waiting. */
  readonly scheduledSendsPerEnvironment: number;
  /** UTF-8 bytes those sends may hold together. */
  readonly scheduledBytesPerEnvironment: number;
}

/** An environment's share of the scheduled-sends queue (the coordination store's queue quota). */
export const scheduledSendsQuota = (accountId: string, envId: string, limits: ScheduledSendLimits) => ({
  pool: `${encodeURIComponent(accountId)}/${encodeURIComponent(envId)}`,
  maxItems: limits.scheduledSendsPerEnvironment,
  maxBytes: limits.scheduledBytesPerEnvironment,
});

/**
 * A scheduled send the environment has no room for: its waiting sends are a usage limit (402),
 * freed as they go out or are deleted.
 */
export class ScheduleQuotaExceededError extends PaymentRequiredError {
  constructor(reason: 'too-many' | 'too-large', limits: ScheduledSendLimits) {
    super({
      code: 'SCHEDULE_QUOTA_EXCEEDED',
      message:
        reason === 'too-many'
          ? `This environment already has ${limits.scheduledSendsPerEnvironment} scheduled sends waiting.`
          : `The scheduled sends waiting in this environment would hold more than ${Math.round(limits.scheduledBytesPerEnvironment / 1_048_576)} MB.`,
      fix: 'Wait for scheduled sends to go out, delete some (DELETE /sender/scheduler/{trackingId}), or send smaller bodies.',
    });
  }
}
