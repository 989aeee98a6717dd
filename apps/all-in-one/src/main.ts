import 'reflect-metadata';
import { openApiDocument, serveOpenApi } from '@notify/gateway-feature';
import { MailCatcher } from '@notify/mail-catcher';
import { runService } from '@notify/platform';
import { emailConfigProblems } from '@notify/sender-email-feature';
import { AllInOneModule } from './all-in-one.module';
import { banner, bootstrap, withLocalSecretsKey } from './bootstrap';

let catcher: MailCatcher | undefined;

void runService({
  name: 'all-in-one',
  checkConfig: (config) => emailConfigProblems(config),
  prepare: async (given, logger) => {
    const config = await withLocalSecretsKey(given);
    if (config.email.smtpUrl !== undefined) return config;
    catcher = new MailCatcher({ keep: 1_000 });
    await catcher.start(config.dev.mailCatcherPort);
    catcher.onMessage((mail) =>
      logger.info({ mailId: mail.id, to: mail.to, subject: mail.subject }, 'mail caught (see /dev/mail)'),
    );
    logger.info({ smtp: catcher.url }, 'no SMTP_URL: emails go to the local mail catcher');
    return { ...config, email: { ...config.email, smtpUrl: catcher.url } };
  },
  rootModule: (config, logger) => AllInOneModule.forRoot(config, logger, catcher),
  configure: (app) => serveOpenApi(app, openApiDocument(app)),
  onListening: async ({ app, baseUrl, config }) => {
    process.stdout.write(banner(baseUrl, await bootstrap(app, config), config, catcher !== undefined));
  },
});
