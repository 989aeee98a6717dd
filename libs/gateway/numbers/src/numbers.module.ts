import { Module } from '@nestjs/common';
import { ProvidersModule } from '@notify/providers';
import { ListNumbersUseCase } from './list-numbers.usecase';
import { NumbersController } from './numbers.controller';
import { OrderNumberUseCase } from './order-number.usecase';
import { ReleaseNumberUseCase } from './release-number.usecase';
import { SearchNumbersUseCase } from './search-numbers.usecase';

/** `/numbers`: the account's phone numbers, bought on the deployment's Twilio account. */
@Module({
  imports: [ProvidersModule],
  controllers: [NumbersController],
  providers: [SearchNumbersUseCase, OrderNumberUseCase, ListNumbersUseCase, ReleaseNumberUseCase],
})
export class NumbersModule {}
