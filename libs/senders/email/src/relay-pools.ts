import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { parseSmtpRelay } from '@notify/domain';
import {
  type AppConfig,
  EgressError,
  InjectConfig,
  InjectLogger,
  type Logger,
  ThreadPool,
} from '@notify/platform';
import type Mail from 'nodemailer/lib/mailer';
import { extname, join } from 'node:path';
import {
  type Relay,
  relayKey,
  type SentMail,
  SmtpPools,
  type SmtpPoolSettings,
  type SmtpThreadCall,
} from './smtp-pools';

interface Transmitter {
  send(relay: Relay, mail: Mail.Options, key: string): Promise<SentMail>;
  close(): Promise<void> | void;
}

/**
 * SMTP pools on worker threads: composing, DKIM-signing and writing each message (as much CPU as
 * the rest of the pipeline around it) leaves the event loop that serves the API and the bus. Errors
 * come back with the fields the sender classifies them by; an egress refusal is an EgressError again.
 */
export class SmtpThreads implements Transmitter {
  private readonly pool: ThreadPool<SmtpThreadCall, SentMail>;

  constructor(settings: SmtpPoolSettings, size: number, logger: Logger, execArgv?: readonly string[]) {
    this.pool = new ThreadPool({
      name: 'smtp',
      // smtp-thread.js once built; smtp-thread.ts when run from source (with the require hook the threads inherit).
      script: join(__dirname, `smtp-thread${extname(__filename)}`),
      size,
      workerData: settings,
      logger,
      ...(execArgv !== undefined ? { execArgv } : {}),
    });
  }

  async send(relay: Relay, mail: Mail.Options, key: string): Promise<SentMail> {
    try {
      return await this.pool.call({ relay, key, mail });
    } catch (error) {
      if (error instanceof Error && error.name === 'EgressError') throw new EgressError(error.message);
      throw error;
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/**
 * Where the email sender hands messages to SMTP: the pools of every relay (SmtpPools), in this
 * thread or on EMAIL_SEND_THREADS worker threads.
 */
@Injectable()
export class RelayPools implements OnApplicationShutdown {
  /** The installation's relay (SMTP_URL), parsed once; undefined when none is configured. */
  readonly defaultRelay: Relay | undefined;
  /** The installation's relay's key, hashed once: every email without a relay of its own sends there. */
  private readonly defaultKey: string | undefined;
  private readonly transmitter: Transmitter;

  constructor(@InjectConfig() config: AppConfig, @InjectLogger() logger: Logger) {
    const url = config.email.smtpUrl;
    this.defaultRelay =
      url === undefined ? undefined : { options: parseSmtpRelay(url, 'SMTP_URL'), tenant: false };
    this.defaultKey = this.defaultRelay === undefined ? undefined : relayKey(this.defaultRelay);
    const settings: SmtpPoolSettings = {
      poolSize: config.email.poolSize,
      maxRelays: config.email.maxRelays,
      egress: config.egress,
    };
    const threads = config.email.sendThreads ?? 0;
    this.transmitter = threads > 0 ? new SmtpThreads(settings, threads, logger) : new SmtpPools(settings);
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
