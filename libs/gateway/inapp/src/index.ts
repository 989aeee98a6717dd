export { InAppModule } from './inapp.module';
export { InAppSockets, MAX_SOCKETS_PER_USER, WS_PATH } from './inapp-sockets';
