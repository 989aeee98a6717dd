import { componentsUsed, mayUseComponents, type TenantScope, unknownComponentsError } from '@notify/domain';
import type { ComponentRepository } from '@notify/store';

/**
 * A template's HTML may use the environment's components (`{{> componentId}}`); one that names a
 * component the environment does not have is refused when saved (400 UNKNOWN_COMPONENT), not left
 * to fail every send. HTML without a partial is not parsed here: its syntax is the render's concern.
 */
export async function checkComponentsExist(
  components: ComponentRepository,
  scope: TenantScope,
  html: string | undefined,
): Promise<void> {
  if (html === undefined || !mayUseComponents(html)) return;
  const used = componentsUsed(html, 'html');
  if (used.length === 0) return;
  const missing = await components.missing(scope, used);
  if (missing.length > 0) throw unknownComponentsError('html', missing);
}
