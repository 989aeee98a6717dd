import { type DnsRecordToPublish, recordsToPublish, type SendingDomainStatus } from '@notify/domain';
import type { SendingDomain } from '@notify/store';

/** A sending domain as the API shows it (pingram's GetSendersResponseInner, plus its DNS records). */
export interface SendingDomainView {
  readonly sender: string;
  readonly status: SendingDomainStatus;
  readonly selector: string;
  readonly createdAt: string;
  readonly lastSync: string;
  readonly mailFromDomainStatus?: SendingDomainStatus;
  readonly statusReason?: string;
  readonly dnsRecords: readonly DnsRecordToPublish[];
}

/** Never the private key: it stays sealed in the store. */
export function sendingDomainView(domain: SendingDomain, spfInclude: string): SendingDomainView {
  return {
    sender: domain.domain,
    status: domain.status,
    selector: domain.selector,
    createdAt: domain.createdAt,
    lastSync: domain.lastSync,
    ...(domain.mailFromStatus !== undefined ? { mailFromDomainStatus: domain.mailFromStatus } : {}),
    ...(domain.reason !== undefined ? { statusReason: domain.reason } : {}),
    dnsRecords: recordsToPublish(domain, { spfInclude }),
  };
}
