export * from './channels/channel';
export * from './delivery-log/delivery-event';
export * from './delivery-log/log-fields';
export * from './notification-types/notification-type';
export * from './templates/template';
export * from './tenancy/tenant-scope';
export * from './users/user';
export * from './preferences/preference';
