import type { TenantScope } from '@notify/domain';

/**
 * SenderNumbers for unit tests: an environment may send from exactly the given numbers. Its shape
 * is SenderNumbers' `mayUse`; the real class has private members, so a call site casts it.
 */
export class FakeSenderNumbers {
  private readonly allowed: ReadonlySet<string>;

  constructor(allowed: Iterable<string> = []) {
    this.allowed = new Set(allowed);
  }

  mayUse(_scope: TenantScope & { readonly test: boolean }, from: string): Promise<boolean> {
    return Promise.resolve(this.allowed.has(from));
  }
}
