import { type Channel, type Template } from '@notify/domain';
import type { Tenant } from '@notify/gateway-auth';
import {
  GetTemplatesListResponseInnerFromJSON,
  instanceOfGetTemplatesListResponseInnerAnyOf,
  instanceOfGetTemplatesListResponseInnerAnyOf1,
  instanceOfGetTemplatesListResponseInnerAnyOf2,
  instanceOfGetTemplatesListResponseInnerAnyOf3,
  instanceOfGetTemplatesListResponseInnerAnyOf4,
  instanceOfGetTemplatesListResponseInnerAnyOf5,
  instanceOfGetTemplatesListResponseInnerAnyOf6,
} from 'pingram';
import { presentTemplate, templateOutput } from './notification-type.presenter';

const tenant: Tenant = { accountId: 'a', envId: 'env-1', keyId: 'k', test: false };
const NOW = '2026-01-01T00:00:00.000Z';
const bare = (channel: Channel): Template => ({
  notificationId: 'welcome',
  channel,
  templateId: 't1',
  createdAt: NOW,
  updatedAt: NOW,
});

/** pingram's one shape per channel of a template answer (its required fields checked). */
const pingramShape: Record<Channel, (value: object) => boolean> = {
  EMAIL: instanceOfGetTemplatesListResponseInnerAnyOf,
  INAPP_WEB: instanceOfGetTemplatesListResponseInnerAnyOf1,
  SMS: instanceOfGetTemplatesListResponseInnerAnyOf2,
  CALL: instanceOfGetTemplatesListResponseInnerAnyOf3,
  PUSH: instanceOfGetTemplatesListResponseInnerAnyOf4,
  WEB_PUSH: instanceOfGetTemplatesListResponseInnerAnyOf5,
  SLACK: instanceOfGetTemplatesListResponseInnerAnyOf6,
};

describe('presentTemplate', () => {
  it.each(Object.keys(pingramShape) as Channel[])(
    'answers a %s template with nothing set in the shape pingram types for its channel',
    (channel) => {
      const answer = presentTemplate(tenant, bare(channel), undefined);
      expect(pingramShape[channel](answer)).toBe(true);
      expect(templateOutput.safeParse(answer).success).toBe(true);
    },
  );

  it('fills unset email fields with empty strings and keeps set ones', () => {
    const answer = presentTemplate(tenant, { ...bare('EMAIL'), subject: 'Hi', html: '<p>Hi</p>' }, undefined);
    expect(GetTemplatesListResponseInnerFromJSON(answer)).toMatchObject({
      envId: 'env-1',
      subject: 'Hi',
      html: '<p>Hi</p>',
      internal: '',
      senderName: '',
      senderEmail: '',
      default: false,
    });
  });

  it('answers both in-app variants with their fields, empty when unset', () => {
    const answer = presentTemplate(
      tenant,
      { ...bare('INAPP_WEB'), title: 'Top', batch: { title: '{{count}} new' } },
      undefined,
    );
    expect(answer).toMatchObject({
      title: 'Top',
      redirectURL: '',
      imageURL: '',
      instant: { title: '', redirectURL: '', imageURL: '' },
      batch: { title: '{{count}} new', redirectURL: '', imageURL: '' },
    });
  });
});
