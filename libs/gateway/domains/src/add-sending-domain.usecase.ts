import { Injectable } from '@nestjs/common';
import { SendingDomainChangesStore } from '@notify/cache';
import { dkimKeyContext, dkimSelector, MAX_SENDING_DOMAINS, type TenantScope } from '@notify/domain';
import { type AppConfig, InjectClock, InjectConfig, SecretBox } from '@notify/platform';
import { type SendingDomain, SendingDomainRepository } from '@notify/store';
import { type Clock, InvalidRequestError } from '@notify/util';
import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { ListSendingDomainsUseCase } from './list-sending-domains.usecase';
import { SendingDomainChecker } from './sending-domain-checker';
import type { SendingDomainView } from './sending-domain.view';

const newKeyPair = promisify(generateKeyPair);

/**
 * `POST /domains {sender}`: adds the sender's domain with its own RSA-2048 DKIM key pair (the
 * private key sealed with SECRETS_KEY, never shown) and looks its records up at once; answers
 * every domain of the environment. Adding a domain the environment has changes nothing but a
 * FAILED one, whose verification starts over with the same key.
 */
@Injectable()
export class AddSendingDomainUseCase {
  constructor(
    private readonly domains: SendingDomainRepository,
    private readonly checker: SendingDomainChecker,
    private readonly list: ListSendingDomainsUseCase,
    private readonly box: SecretBox,
    private readonly changes: SendingDomainChangesStore,
    @InjectConfig() private readonly config: AppConfig,
    @InjectClock() private readonly clock: Clock,
  ) {}

  async execute(scope: TenantScope, domain: string): Promise<SendingDomainView[]> {
    const now = new Date(this.clock.now()).toISOString();
    const existing = await this.domains.get(scope, domain);
    if (existing === undefined) await this.create(scope, domain, now);
    else if (existing.status === 'FAILED') {
      const restarted = await this.domains.restart(scope, domain, now);
      if (restarted !== undefined) {
        await this.changes.announce({ scope, domain, kind: 'added' });
        await this.checker.check(scope, restarted, 0);
      }
    }
    return this.list.execute(scope);
  }

  private async create(scope: TenantScope, domain: string, now: string): Promise<void> {
    const { publicKey, privateKey } = await newKeyPair('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'der' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const added: SendingDomain = {
      domain,
      selector: dkimSelector(randomBytes(5)),
      publicKey: publicKey.toString('base64'),
      privateKeySealed: this.box.seal(privateKey, dkimKeyContext(scope, domain)),
      ...(this.config.inbound.mailDomain !== undefined
        ? { returnPathTarget: this.config.inbound.mailDomain }
        : {}),
      status: 'PENDING',
      pendingSince: now,
      lastSync: now,
      createdAt: now,
    };
    const outcome = await this.domains.create(scope, added, MAX_SENDING_DOMAINS);
    if (outcome === 'full')
      throw new InvalidRequestError({
        code: 'LIMIT_REACHED',
        message: `The limit of ${MAX_SENDING_DOMAINS} sending domains per environment is reached.`,
        fix: 'Delete a domain you no longer send from (DELETE /domains/{sender}).',
      });
    if (outcome !== 'created') return;
    await this.changes.announce({ scope, domain, kind: 'added' });
    await this.checker.check(scope, added, 0);
  }
}
