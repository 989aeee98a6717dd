import { Module } from '@nestjs/common';
import { DnsResolver } from './dns-resolver';

/** The DNS resolver port (needs the platform module's configuration). */
@Module({ providers: [DnsResolver], exports: [DnsResolver] })
export class DnsModule {}
