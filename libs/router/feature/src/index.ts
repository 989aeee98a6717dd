export { RouterModule } from './router.module';
export { RouteSendUseCase, SCHEDULED_SENDS_QUEUE } from './route-send.usecase';
