export { ComponentsModule } from './components.module';
