import { Module } from '@nestjs/common';
import { SANDBOX_PROVIDERS } from '@notify/providers';
import { LocalPeersSandbox } from './local-peers-sandbox';
import { SandboxPeers } from './sandbox-peers';
import { SandboxPushPeers } from './sandbox-push-peers';

/** The local peers as the sandbox providers of test environments (SANDBOX_PROVIDERS); needs the store. */
@Module({
  providers: [SandboxPeers, SandboxPushPeers, { provide: SANDBOX_PROVIDERS, useClass: LocalPeersSandbox }],
  exports: [SANDBOX_PROVIDERS],
})
export class LocalPeersSandboxModule {}
