export { DomainsModule } from './domains.module';
