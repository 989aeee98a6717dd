import {
  checkComponentRuns,
  componentCalls,
  componentGraphOf,
  mayUseComponents,
  type TenantScope,
  unknownComponentsError,
} from '@notify/domain';
import type { ComponentRepository } from '@notify/store';

/**
 * A template's HTML may use the environment's components (`{{> componentId}}`); one that names a
 * component the environment does not have is refused when saved (400 UNKNOWN_COMPONENT), not left
 * to fail every send, and so is HTML whose partials would run more than MAX_COMPONENT_CALLS
 * components per render (400 TOO_MANY_COMPONENT_CALLS). HTML without a partial is not parsed
 * here: its syntax is the render's concern.
 */
export async function checkComponentsExist(
  components: ComponentRepository,
  scope: TenantScope,
  html: string | undefined,
): Promise<void> {
  if (html === undefined || !mayUseComponents(html)) return;
  const calls = componentCalls(html, 'html');
  if (calls.length === 0) return;
  const missing = await components.missing(scope, [...new Set(calls)]);
  if (missing.length > 0) throw unknownComponentsError('html', missing);
  checkComponentRuns(componentGraphOf(await components.list(scope)), calls, 'html');
}
