export { LocalPeersSandboxModule } from './local-peers-sandbox.module';
