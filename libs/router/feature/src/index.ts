export { RouterModule } from './router.module';
export { RouteSendUseCase } from './route-send.usecase';
