import { classifyInboundSms } from './inbound-sms';

describe('classifyInboundSms', () => {
  it.each(['STOP', 'stop', ' Stop ', 'STOPALL', 'unsubscribe', 'Cancel', 'END', 'quit\n'])(
    '%j opts out',
    (text) => {
      expect(classifyInboundSms(text)).toEqual({ kind: 'unsubscribe', keyword: text.trim().toUpperCase() });
    },
  );

  it.each(['START', 'yes', 'Unstop'])('%j opts back in', (text) => {
    expect(classifyInboundSms(text)).toEqual({ kind: 'subscribe', keyword: text.trim().toUpperCase() });
  });

  it.each(['Stop it please', 'STOP!', 'yes please', '', 'Where is my order?'])('%j is a message', (text) => {
    expect(classifyInboundSms(text)).toEqual({ kind: 'message' });
  });
});
