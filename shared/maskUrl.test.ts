import { describe, expect, it } from 'vitest';
import { maskUrl, withMaskedUrls } from './maskUrl';

describe('a webhook URL as a viewer sees it', () => {
  it('masks user info, query and fragment and keeps the receiver', () => {
    expect(maskUrl('https://bot:s3cret@hooks.example.com:8443/in/patrol?token=abc&x=1#sig')).toBe(
      'https://***@hooks.example.com:8443/in/patrol?***#***',
    );
    expect(maskUrl('https://hooks.example.com/in/patrol')).toBe('https://hooks.example.com/in/patrol');
  });

  it('masks what does not parse whole, and leaves no URL as it is', () => {
    expect(maskUrl('not a url ?token=abc')).toBe('***');
    expect(maskUrl(null)).toBeNull();
    expect(withMaskedUrls({ id: 1, webhook: 'https://h.example/?k=v', n: 2 }, ['webhook'])).toEqual({
      id: 1,
      webhook: 'https://h.example/?***',
      n: 2,
    });
  });
});
