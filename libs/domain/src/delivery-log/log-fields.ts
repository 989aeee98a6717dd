/**
 * The fields of a log record, each with its value kind. This list is the one place the
 * delivery log's shape is defined: the event log's columns, the fold, the API schema and the
 * drift test all read it. `trackingId`, `accountId` and `envId` are the record's keys, not fields.
 */
const numberFields = [
  'inapp_sent_after',
  'inapp_delivered_after',
  'mobile_push_sent_after',
  'mobile_push_delivered_after',
  'email_sent_after',
  'email_delivered_after',
  'email_inbound_attachment_count',
  'sms_replied_segments',
  'sms_replied_cost',
  'web_push_sent_after',
  'web_push_delivered_after',
  'slack_sent_after',
  'slack_delivered_after',
  'call_sent_after',
  'call_delivered_after',
  'call_delivered_cost_internal',
  'call_delivered_cost',
  'sms_sent_after',
  'sms_sent_segments',
  'sms_sent_parts',
  'sms_sent_cost',
  'sms_carrier_cost_internal',
  'sms_carrier_fee_internal',
  'sms_rate_internal',
  'sms_delivered_after',
  'sms_delivered_cost_internal',
] as const;

const booleanFields = [
  'test',
  'email_inbound_has_attachments',
  'email_inbound_webhook_delivered',
  'sms_inbound_webhook_delivered',
  'sms_unsubscribe_webhook_delivered',
  'sms_subscribe_webhook_delivered',
  'sms_sent_mms',
] as const;

const stringFields = [
  // general
  'received_at',
  'type',
  'clientId',
  'agent',
  'ip',
  'request',
  'processed_at',
  'scheduled_for',
  'user_id',
  'user_email',
  'user_number',
  'schedule_updated_at',
  'schedule_updated_to',
  'schedule_deleted_at',
  'ignored',
  'failed_at',
  'failed_internal',
  'failed_code',
  // routing and previews
  ...(['email', 'sms', 'web_push', 'mobile_push', 'call', 'inapp', 'slack'] as const).flatMap(
    (p) => [`${p}_routing`, `${p}_routing_reason`] as const,
  ),
  'email_preview',
  'sms_preview',
  'call_preview',
  'web_push_preview',
  'mobile_push_preview',
  'slack_preview',
  'inapp_preview',
  // in-app
  'inapp_sent_at',
  'inapp_delivered_at',
  'inapp_failed_at',
  'inapp_failed_internal',
  'inapp_failed_code',
  // mobile push
  'mobile_push_sent_at',
  'mobile_push_sent_token',
  'mobile_push_delivered_at',
  'mobile_push_failed_at',
  'mobile_push_failed_token',
  'mobile_push_failed_internal',
  'mobile_push_failed_code',
  // email
  'email_sent_at',
  'email_sent_message_id',
  'email_delivered_at',
  'email_delivered_recipients',
  'email_delivered_webhook_res',
  'email_failed_at',
  'email_failed_recipient',
  'email_failed_diagnostic_code',
  'email_failed_internal',
  'email_failed_webhook_res',
  'email_failed_code',
  'email_opened_at',
  'email_opened_user_agent',
  'email_opened_ip',
  'email_opened_webhook_res',
  'email_clicked_at',
  'email_clicked_user_agent',
  'email_clicked_ip',
  'email_clicked_link',
  'email_clicked_link_tags',
  'email_clicked_webhook_res',
  'email_inbound_at',
  'email_inbound_from',
  'email_inbound_from_name',
  'email_inbound_to',
  'email_inbound_cc',
  'email_inbound_bcc',
  'email_inbound_reply_to',
  'email_inbound_inbox',
  'email_inbound_subject',
  'email_inbound_body_text',
  'email_inbound_body_html',
  'email_inbound_message_id',
  'email_inbound_in_reply_to',
  'email_inbound_references',
  'email_inbound_webhook_res',
  'email_inbound_resolution_type',
  // sms
  'sms_inbound_at',
  'sms_inbound_from',
  'sms_inbound_to',
  'sms_inbound_text',
  'sms_inbound_webhook_res',
  'sms_inbound_media',
  'sms_replied_at',
  'sms_replied_to',
  'sms_replied_text',
  'sms_replied_encoding',
  'sms_unsubscribe_at',
  'sms_unsubscribe_from',
  'sms_unsubscribe_keyword',
  'sms_unsubscribe_webhook_res',
  'sms_subscribe_at',
  'sms_subscribe_from',
  'sms_subscribe_keyword',
  'sms_subscribe_webhook_res',
  'sms_sent_at',
  'sms_sent_from',
  'sms_sent_carrier',
  'sms_sent_line_type',
  'sms_sent_encoding',
  'sms_sent_country',
  'sms_sent_messageId',
  'sms_delivered_at',
  'sms_failed_at',
  'sms_failed_internal',
  'sms_failed_code',
  // call
  'call_sent_at',
  'call_sent_from',
  'call_delivered_at',
  'call_delivered_code',
  'call_failed_at',
  'call_failed_internal',
  'call_failed_code',
  // web push
  'web_push_sent_at',
  'web_push_sent_token',
  'web_push_delivered_at',
  'web_push_delivered_token',
  'web_push_delivered_internal',
  'web_push_failed_at',
  'web_push_failed_token',
  'web_push_failed_internal',
  'web_push_failed_code',
  // team chat
  'slack_sent_at',
  'slack_delivered_at',
  'slack_delivered_internal',
  'slack_failed_at',
  'slack_failed_internal',
  'slack_failed_code',
] as const;

export type StringLogField = (typeof stringFields)[number];
export type NumberLogField = (typeof numberFields)[number];
export type BooleanLogField = (typeof booleanFields)[number];
export type LogField = StringLogField | NumberLogField | BooleanLogField;
export type LogFieldKind = 'string' | 'number' | 'boolean';

export const LOG_FIELDS: ReadonlyMap<LogField, LogFieldKind> = new Map<LogField, LogFieldKind>([
  ...stringFields.map((f) => [f, 'string'] as const),
  ...numberFields.map((f) => [f, 'number'] as const),
  ...booleanFields.map((f) => [f, 'boolean'] as const),
]);

/** Values an event may set; absent means "this event says nothing about the field". */
export type LogFields = { [F in StringLogField]?: string } & { [F in NumberLogField]?: number } & {
  [F in BooleanLogField]?: boolean;
};

/** A log record as the API returns it: the keys plus the latest value of every field that has one. */
export type LogRecord = LogFields & { trackingId: string; accountId: string; envId: string };
