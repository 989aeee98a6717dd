import { SetMetadata } from '@nestjs/common';
import type { Role } from '@notify/domain';

export const REQUIRED_ROLE = 'notify:required-role';
export const ADMINISTERED = 'notify:administered';

/** The least role a member needs for this operation (or every operation of the controller). */
export const RequiresRole = (role: Role) => SetMetadata(REQUIRED_ROLE, role);

/**
 * A controller of an area that admins administer (environments, keys, templates, types,
 * webhooks, settings): members may read it, changes need an admin.
 */
export const Administered = () => SetMetadata(ADMINISTERED, true);
