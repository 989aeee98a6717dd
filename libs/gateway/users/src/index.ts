export { UsersModule } from './users.module';
