import { escapeTwiml } from './twiml';

describe('escapeTwiml', () => {
  it('escapes the five XML specials, so a value cannot close the element or add a verb', () => {
    expect(escapeTwiml(`</Say><Dial>+1</Dial> & "it's"`)).toBe(
      '&lt;/Say&gt;&lt;Dial&gt;+1&lt;/Dial&gt; &amp; &quot;it&apos;s&quot;',
    );
  });

  it('leaves other text as it is', () => {
    expect(escapeTwiml('Your code is 123456 — ünïcode')).toBe('Your code is 123456 — ünïcode');
  });
});
