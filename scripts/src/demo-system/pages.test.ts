// The demo study system's pages and its reading of the study_access claim (issue 22).
import { describe, expect, it } from 'vitest';
import { accessEndedPage, escapeHtml, signedInPage, signedOutPage } from './pages';
import { studyAccessOf } from './relying-party';

const person = {
  sub: 's',
  name: 'Jordan <Researcher>',
  email: 'user@portal.test',
  accessToken: 'a',
  studyAccess: [{ studyRole: 'Data Manager', aoCodes: ['MA036'], laoCodes: [], studies: ['E1234', 'A0131'] }],
};

describe('the demo system pages', () => {
  it('escapes what came from outside', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(signedInPage(person)).toContain('Signed in as Jordan &lt;Researcher&gt; (user@portal.test)');
  });

  it('shows the study access as a table with a caption and headers, in a page with a language and a title', () => {
    const html = signedInPage(person);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<title>Your studies · Electronic Data Capture (demo)</title>');
    expect(html).toContain('<caption>Your study access in this system</caption>');
    expect(html).toContain(
      '<th scope="row">Data Manager</th><td>MA036</td><td><span>none</span></td><td>E1234, A0131</td>',
    );
    expect(signedInPage({ ...person, studyAccess: [] })).toContain('grants you no study access');
  });

  it('offers the sign-in when signed out or when the access has ended', () => {
    expect(signedOutPage()).toContain('href="/login">Sign in with the Portal Gateway</a>');
    expect(signedOutPage()).toContain('href="/login?level=phr">Sign in with a passkey</a>');
    expect(accessEndedPage()).toContain('<p class="alert" role="alert">Your access to this system has ended.</p>');
  });
});

describe('the sign-in level in words', () => {
  it('names a passkey for the phishing-resistant level', () => {
    const html = signedInPage({ ...person, acr: 'urn:portal:acr:phr', amr: ['hwk'] });
    expect(html).toContain('Signed in with a passkey or security key (urn:portal:acr:phr; hwk)');
  });
});

describe('studyAccessOf', () => {
  it('keeps well-formed role blocks and drops the rest', () => {
    expect(
      studyAccessOf([
        { studyRole: 'Site Investigator', aoCodes: ['MA036', 7], laoCodes: 'x', studies: ['E1234'] },
        { aoCodes: [] },
        null,
      ]),
    ).toEqual([{ studyRole: 'Site Investigator', aoCodes: ['MA036'], laoCodes: [], studies: ['E1234'] }]);
    expect(studyAccessOf('nope')).toEqual([]);
  });
});
