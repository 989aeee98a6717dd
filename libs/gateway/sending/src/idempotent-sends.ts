import { Inject, Injectable } from '@nestjs/common';
import { COORDINATION, type CoordinationStore } from '@notify/cache';
import { canonicalJson, type NormalizedSend } from '@notify/domain';
import type { Tenant } from '@notify/gateway-auth';
import { ConflictError, InvalidRequestError } from '@notify/util';
import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { type Accepted, AcceptSendUseCase, type SendOrigin } from './accept-send.usecase';

/** How long a key answers with its first send. */
const KEY_LIFETIME_MS = 86_400_000;
/** Printable ASCII, as the IETF draft's examples and every SDK's generated UUIDs are. */
const KEY = /^[\x21-\x7e]{1,255}$/;

const recordSchema = z.object({
  fingerprint: z.string(),
  trackingId: z.string(),
  /** Set once the send is on the bus: the answer every retry gets. */
  messages: z.array(z.string()).optional(),
});

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
    @Inject(COORDINATION) private readonly coordination: CoordinationStore,
    private readonly accept: AcceptSendUseCase,
  ) {}

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
    const stored = `idempotency/${tenant.accountId}/${tenant.envId}/${sha256(key)}`;
    const fingerprint = sha256(`${origin.source}\0${canonicalJson(body)}`);
    const first: z.infer<typeof recordSchema> = { fingerprint, trackingId: randomUUID() };
    const record = (await this.coordination.setIfAbsent(stored, JSON.stringify(first), KEY_LIFETIME_MS))
      ? first
      : recordSchema.parse(JSON.parse((await this.coordination.get(stored)) ?? JSON.stringify(first)));
    if (record.fingerprint !== fingerprint)
      throw new ConflictError({
        code: 'IDEMPOTENCY_KEY_REUSED',
        message: 'This Idempotency-Key was used in the last 24 hours for a different request.',
        fix: 'Use a new key for a new send; retry a send with exactly the same body.',
      });
    if (record.messages !== undefined) return { trackingId: record.trackingId, messages: record.messages };
    const accepted = await this.accept.execute(tenant, send, origin, record.trackingId);
    await this.coordination.set(
      stored,
      JSON.stringify({ ...record, messages: accepted.messages }),
      KEY_LIFETIME_MS,
    );
    return accepted;
  }
}
