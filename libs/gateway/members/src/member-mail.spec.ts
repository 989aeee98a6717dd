import { TemplateRenderer } from '@notify/domain';
import { membersHarness } from './testing/members.harness';
import { escapeHtml, linkMail } from './member-mail';

describe('member mail', () => {
  it('escapes markup and template braces, so an address or a name stays text', () => {
    expect(escapeHtml('<b>"a" & {{b}}</b>')).toBe(
      '&#60;b&#62;&#34;a&#34; &#38; &#123;&#123;b&#125;&#125;&#60;/b&#62;',
    );
  });

  it('writes the link as the href and as text, surviving the template engine unchanged', () => {
    const html = linkMail('Joining as {{role}} <now>', 'Accept', 'https://notify.example/p?token=a.b');
    expect(html).toContain('<a href="https://notify.example/p?token=a.b">Accept</a>');
    const rendered = new TemplateRenderer(1024 * 1024).render(
      html,
      { role: 'owner' },
      { html: true, field: 'email.html', cache: false },
    );
    expect(rendered).toBe(html);
    expect(rendered).not.toContain('owner');
  });

  it('puts the token in the query, or in the fragment, which browsers never send', async () => {
    const h = await membersHarness();
    try {
      expect(h.mail.link('profile/accept_invite', 'a.b')).toBe(
        'https://notify.example/base/profile/accept_invite?token=a.b',
      );
      expect(h.mail.link('console/sign-in', 'x_y-z', { fragment: true })).toBe(
        'https://notify.example/base/console/sign-in#token=x_y-z',
      );
    } finally {
      await h.close();
    }
  });
});
