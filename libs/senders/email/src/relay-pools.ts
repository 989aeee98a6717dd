import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { parseSmtpRelay } from '@notify/domain';
import { type AppConfig, InjectConfig, InjectLogger, type Logger, ReadinessRegistry } from '@notify/platform';
import type Mail from 'nodemailer/lib/mailer';
import { type Relay, relayKey, type SentMail, SmtpPools, type SmtpPoolSettings } from './smtp-pools';
import { SmtpThreads } from './smtp-threads';

interface Transmitter {
  send(relay: Relay, mail: Mail.Options, key: string): Promise<SentMail>;
  close(): Promise<void> | void;
}

/** How long the sending threads may take to load before the sender's start fails. */
const THREADS_READY_TIMEOUT_MS = 60_000;

/**
 * Where the email sender hands messages to SMTP: the pools of every relay (SmtpPools), in this
 * thread or on EMAIL_SEND_THREADS worker threads.
 */
@Injectable()
export class RelayPools implements OnModuleInit, OnApplicationShutdown {
  /** The installation's relay (SMTP_URL), parsed once; undefined when none is configured. */
  readonly defaultRelay: Relay | undefined;
  /** The installation's relay's key, hashed once: every email without a relay of its own sends there. */
  private readonly defaultKey: string | undefined;
  private readonly transmitter: Transmitter;
  private readonly threads: SmtpThreads | undefined;

  constructor(
    @InjectConfig() config: AppConfig,
    @InjectLogger() logger: Logger,
    private readonly readiness: ReadinessRegistry,
  ) {
    const url = config.email.smtpUrl;
    this.defaultRelay =
      url === undefined ? undefined : { options: parseSmtpRelay(url, 'SMTP_URL'), tenant: false };
    this.defaultKey = this.defaultRelay === undefined ? undefined : relayKey(this.defaultRelay);
    const settings: SmtpPoolSettings = {
      poolSize: config.email.poolSize,
      maxRelays: config.email.maxRelays,
      egress: config.egress,
    };
    // Unset: none (the all-in-one sets its own default).
    const threads = config.email.sendThreads ?? 0;
    this.threads = threads > 0 ? new SmtpThreads(settings, threads, logger) : undefined;
    this.transmitter = this.threads ?? new SmtpPools(settings);
  }

  /** Sending threads that cannot load fail the start; one that is down fails readiness. */
  async onModuleInit(): Promise<void> {
    const threads = this.threads;
    if (threads === undefined) return;
    await threads.ready(THREADS_READY_TIMEOUT_MS);
    this.readiness.register({ name: 'smtp-threads', probe: () => threads.probe() });
  }

  send(relay: Relay, mail: Mail.Options): Promise<SentMail> {
    const key = (relay === this.defaultRelay ? this.defaultKey : undefined) ?? relayKey(relay);
    return this.transmitter.send(relay, mail, key);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.transmitter.close();
  }
}

/** SMTP_URL follows the tenant relays' rules: explicit parts only, no query options. */
export function emailConfigProblems(config: AppConfig): string[] {
  if (config.email.smtpUrl === undefined) return [];
  try {
    parseSmtpRelay(config.email.smtpUrl, 'SMTP_URL');
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}
