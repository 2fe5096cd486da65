import { describe, expect, it } from 'vitest';
import { evidenceUrl, redactDeep, redactText } from './redactEvidence';

describe('evidence redaction', () => {
  it('replaces every secret in a text, plain or URL-encoded', () => {
    expect(redactText('login {"password":"s3cr\\"t@x"} then s3cr%22t%40x', ['s3cr"t@x'])).toBe(
      'login {"password":"***"} then ***',
    );
  });

  it('leaves one- and two-character secrets alone rather than blank ordinary text', () => {
    expect(redactText('a b c', ['a'])).toBe('a b c');
  });

  it('strips user info and secret-looking query values from a URL', () => {
    expect(evidenceUrl('https://bob:pw@site.example/api/x?token=abc&page=2&sig=zz&q=hunter22', ['hunter22'])).toBe(
      'https://site.example/api/x?token=***&page=2&sig=***&q=***',
    );
  });

  it('redacts a password with a space in a query value it is only part of, as the URL is written back form-encoded', () => {
    // The token parameter is masked, so the whole query is written again: the space becomes '+'.
    const kept = evidenceUrl('https://site.example/log?token=abc&note=login%20as%20bob%20with%20hunter%2022%20failed', [
      'hunter 22',
    ]);
    expect(kept).toBe('https://site.example/log?token=***&note=login+as+bob+with+***+failed');
    expect(redactText('q=a+b+hunter+22', ['hunter 22'])).toBe('q=a+b+***');
  });

  it('redacts a secret in the path and any text that is not a URL', () => {
    expect(evidenceUrl('https://site.example/reset/hunter22/go', ['hunter22'])).toBe(
      'https://site.example/reset/***/go',
    );
    expect(evidenceUrl('not a url hunter22', ['hunter22'])).toBe('not a url ***');
  });

  it('redacts every string of a nested result', () => {
    expect(redactDeep({ msg: 'pw hunter22', list: [{ v: 'hunter22' }], n: 3 }, ['hunter22'])).toEqual({
      msg: 'pw ***',
      list: [{ v: '***' }],
      n: 3,
    });
  });
});
