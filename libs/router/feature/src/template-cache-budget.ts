import type { AppConfig } from '@notify/platform';

/**
 * How a router splits TEMPLATE_CACHE_MB, the total it spends on what it renders and routes by:
 * half for compiled templates (the costliest to rebuild), a quarter for email components, an
 * eighth each for stored templates and notification types (their routing fields), so the caches
 * together never hold more than the setting.
 */
export function templateCacheBudget(config: AppConfig) {
  const total = config.limits.templateCacheBytes;
  return {
    compiled: Math.floor(total / 2),
    components: Math.floor(total / 4),
    templates: Math.floor(total / 8),
    types: Math.floor(total / 8),
  } as const;
}
