import { InvalidRequestError } from '@notify/util';
import type { z } from 'zod';

/**
 * A provider setting a tenant may store (an SMTP relay today; Twilio, Slack, FCM and APNs
 * credentials with their channels). Every kind goes through the same path: parsed into explicit,
 * typed options (never a URL or object handed to a library, whose extra fields would become
 * options), its destinations checked by the egress guard, sealed at rest, masked on read.
 */
export interface ProviderSettingKind<T> {
  /** Where the setting lives on the environment, and the sealing context. */
  readonly name: string;
  /** The API field that carries it, for error messages. */
  readonly field: string;
  /** Validates untrusted input into typed options; throws InvalidProviderSettingError. */
  parse(input: unknown): T;
  /** The typed options as stored: re-checked on every read, so nothing unchecked reaches a client. */
  readonly stored: z.ZodType<T>;
  /** Hosts the service will connect to on the tenant's behalf. */
  destinations(value: T): readonly string[];
  /** What a read shows: never a credential in full. */
  present(value: T): string;
}

export class InvalidProviderSettingError extends InvalidRequestError {
  constructor(field: string, problem: string, fix: string) {
    super({ code: 'INVALID_PROVIDER_SETTING', message: `${field}: ${problem}`, fix });
  }
}
