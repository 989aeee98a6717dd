import { createTwilioClient } from '@notify/providers';
import { TwilioPeer } from './twilio-peer';

describe('TwilioPeer phone numbers through the twilio SDK', () => {
  const peer = new TwilioPeer();
  let client: ReturnType<typeof createTwilioClient>;

  beforeAll(async () => {
    await peer.start();
    client = createTwilioClient({ accountSid: peer.accountSid, authToken: peer.authToken, apiUrl: peer.url });
  });

  afterAll(() => peer.stop());

  it('offers local numbers by country, area code and pattern (letters as keypad digits), with Twilio’s fields', async () => {
    const sf = await client
      .availablePhoneNumbers('US')
      .local.list({ areaCode: 415, smsEnabled: true, limit: 3 });
    expect(sf.map((n) => n.phoneNumber)).toEqual(['+14155550100', '+14155550101', '+14155550102']);
    expect(sf[0]).toMatchObject({
      friendlyName: '(415) 555-0100',
      locality: 'San Francisco',
      region: 'CA',
      isoCountry: 'US',
      capabilities: { voice: true, SMS: true, MMS: true },
    });
    // A pattern matches anywhere in the number: 555-0155, in every US area.
    const pattern = await client.availablePhoneNumbers('US').local.list({ contains: '0155', limit: 50 });
    expect(pattern.map((n) => n.phoneNumber)).toEqual([
      '+14155550155',
      '+12125550155',
      '+15125550155',
      '+12065550155',
    ]);
    // "JK" is 55 on the keypad.
    const letters = await client
      .availablePhoneNumbers('US')
      .local.list({ areaCode: 415, contains: '01jk', limit: 5 });
    expect(letters.map((n) => n.phoneNumber)).toEqual(['+14155550155']);
    const toronto = await client.availablePhoneNumbers('CA').local.list({ areaCode: 416, limit: 1 });
    expect(toronto[0]).toMatchObject({ phoneNumber: '+14165550100', region: 'ON', isoCountry: 'CA' });
    expect(await client.availablePhoneNumbers('CA').local.list({ mmsEnabled: true, limit: 5 })).toEqual([]);
    await expect(client.availablePhoneNumbers('ZZ').local.list({ limit: 5 })).rejects.toMatchObject({
      status: 404,
      code: 20404,
    });
  });

  it('sells a number once, lists it by number, and offers it again once released', async () => {
    const bought = await client.incomingPhoneNumbers.create({
      phoneNumber: '+12125550142',
      friendlyName: 'acct-1',
    });
    expect(bought).toMatchObject({
      sid: expect.stringMatching(/^PN[0-9a-f]{32}$/),
      accountSid: peer.accountSid,
      phoneNumber: '+12125550142',
      friendlyName: 'acct-1',
      capabilities: { voice: true, sms: true, mms: true },
    });
    expect(bought.dateCreated).toBeInstanceOf(Date);
    const offered = async () =>
      (await client.availablePhoneNumbers('US').local.list({ contains: '2125550142', limit: 5 })).length;
    expect(await offered()).toBe(0);
    await expect(client.incomingPhoneNumbers.create({ phoneNumber: '+12125550142' })).rejects.toMatchObject({
      status: 400,
      code: 21422,
    });
    await expect(client.incomingPhoneNumbers.create({ phoneNumber: '+33612345678' })).rejects.toMatchObject({
      code: 21422,
    });
    await expect(client.incomingPhoneNumbers.create({ phoneNumber: 'nope' })).rejects.toMatchObject({
      code: 21421,
    });

    const listed = await client.incomingPhoneNumbers.list({ phoneNumber: '+12125550142', limit: 1 });
    expect(listed.map((n) => [n.sid, n.friendlyName])).toEqual([[bought.sid, 'acct-1']]);
    expect(await client.incomingPhoneNumbers.list({ phoneNumber: '+12125550143', limit: 1 })).toEqual([]);

    expect(await client.incomingPhoneNumbers(bought.sid).remove()).toBe(true);
    await expect(client.incomingPhoneNumbers(bought.sid).remove()).rejects.toMatchObject({ status: 404 });
    expect(await offered()).toBe(1);
  });

  it('serves numbers to its own account only', async () => {
    const stranger = createTwilioClient({
      accountSid: peer.accountSid,
      authToken: '0'.repeat(32),
      apiUrl: peer.url,
    });
    await expect(stranger.incomingPhoneNumbers.list({ limit: 1 })).rejects.toMatchObject({ status: 401 });
    await expect(stranger.availablePhoneNumbers('US').local.list({ limit: 1 })).rejects.toMatchObject({
      status: 401,
    });
  });
});
