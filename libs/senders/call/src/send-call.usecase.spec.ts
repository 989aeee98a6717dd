import { sayTwiml } from './send-call.usecase';

describe('sayTwiml', () => {
  it('speaks the message as text: markup in it cannot add TwiML verbs', () => {
    expect(sayTwiml('Hi Tom & Jerry <3')).toBe('<Response><Say>Hi Tom &amp; Jerry &lt;3</Say></Response>');
    expect(sayTwiml('</Say><Dial>+15551234567</Dial><Say>')).toBe(
      '<Response><Say>&lt;/Say&gt;&lt;Dial&gt;+15551234567&lt;/Dial&gt;&lt;Say&gt;</Say></Response>',
    );
    expect(sayTwiml(`it's "quoted"`)).toBe('<Response><Say>it&apos;s &quot;quoted&quot;</Say></Response>');
  });
});
