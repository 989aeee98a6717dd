import { Injectable } from '@nestjs/common';
import { expandEachComponent, Limits, type TenantScope } from '@notify/domain';
import type { z } from 'zod';
import { ListComponentsUseCase } from './list-components.usecase';
import type { parsedComponentOutput } from './component.presenter';

export interface ListParsedComponentsCommand {
  readonly scope: TenantScope;
}

/** The editor's JSON as a value: empty is none (null), and text that is not JSON stays as it is. */
function parsed(json: string): unknown {
  if (json === '') return null;
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

/**
 * Every component of the environment ready to use outside the service: `internal` and
 * `internalPage` parsed from JSON, and `html` with the components it uses expanded in place, so
 * each is the complete fragment a render inserts (before parameters are filled in). Each
 * component is expanded once however many use it; one whose expansion would be longer than a
 * template's HTML may be (or that does not parse) is answered as its own HTML, unexpanded, so one
 * such component never fails the listing.
 */
@Injectable()
export class ListParsedComponentsUseCase {
  constructor(private readonly list: ListComponentsUseCase) {}

  async execute({ scope }: ListParsedComponentsCommand): Promise<z.infer<typeof parsedComponentOutput>[]> {
    const components = await this.list.execute({ scope });
    const expanded = expandEachComponent(
      new Map(components.map((c) => [c.componentId, c.html])),
      Limits.html,
    );
    return components.map((c) => ({
      ...c,
      internal: parsed(c.internal),
      internalPage: parsed(c.internalPage),
      html: expanded.get(c.componentId) ?? c.html,
    }));
  }
}
