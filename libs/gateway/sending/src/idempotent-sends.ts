import { Injectable } from '@nestjs/common';
import { type IdempotencyRecord, IdempotencyRecordsStore } from '@notify/cache';
import { canonicalJson, type NormalizedSend } from '@notify/domain';
import type { Tenant } from '@notify/gateway-auth';
import { ConflictError, InvalidRequestError } from '@notify/util';
import { createHash, randomUUID } from 'node:crypto';
import { type Accepted, AcceptSendUseCase, type SendOrigin } from './accept-send.usecase';

/** Printable ASCII, as the IETF draft's examples and every SDK's generated UUIDs are. */
const KEY = /^[\x21-\x7e]{1,255}$/;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * `Idempotency-Key` on `POST /send`, `/email` and `/sms`: the same key within 24 h
 * answers with the first send's tracking id and sends nothing again; the same key with another
 * body (or path) is 409 IDEMPOTENCY_KEY_REUSED. The tracking id is chosen before the send is
 * published, so a retry after an attempt that died before recording its answer publishes the
 * same tracking id again, and the senders' delivery ledgers (keyed by it) send nothing twice.
 */
@Injectable()
export class IdempotentSends {
  constructor(
    private readonly records: IdempotencyRecordsStore,
    private readonly accept: AcceptSendUseCase,
  ) {}

  /**
   * Whether a send with this key was accepted and answered already: its retry is answered from
   * the record, so the usage gate lets it through (whatever the limit says now, it sends nothing).
   */
  async answered(tenant: Tenant, key: string): Promise<boolean> {
    if (!KEY.test(key)) return false;
    return (await this.records.get(tenant, key))?.messages !== undefined;
  }

  async execute(
    tenant: Tenant,
    send: NormalizedSend,
    origin: SendOrigin,
    body: unknown,
    key: string | undefined,
  ): Promise<Accepted> {
    if (key === undefined) return this.accept.execute(tenant, send, origin);
    if (!KEY.test(key))
      throw new InvalidRequestError({
        code: 'INVALID_IDEMPOTENCY_KEY',
        message: 'Idempotency-Key must be 1 to 255 printable ASCII characters.',
        fix: 'Use a UUID per logical send.',
      });
    const fingerprint = sha256(`${origin.source}\0${canonicalJson(body)}`);
    const first: IdempotencyRecord = { fingerprint, trackingId: randomUUID() };
    const record = await this.records.claim(tenant, key, first);
    if (record.fingerprint !== fingerprint)
      throw new ConflictError({
        code: 'IDEMPOTENCY_KEY_REUSED',
        message: 'This Idempotency-Key was used in the last 24 hours for a different request.',
        fix: 'Use a new key for a new send; retry a send with exactly the same body.',
      });
    if (record.messages !== undefined) return { trackingId: record.trackingId, messages: record.messages };
    const accepted = await this.accept.execute(tenant, send, origin, record.trackingId);
    await this.records.answered(tenant, key, { ...record, messages: accepted.messages });
    return accepted;
  }
}
