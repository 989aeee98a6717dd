import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'notify:public';

/** Marks a route that needs no credentials (status, health, docs); every other route does. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
