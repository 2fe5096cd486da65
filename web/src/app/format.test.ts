import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatInZone, formatKib, formatMs, setDisplayTimeZone, userName } from './format';

describe('format', () => {
  it('shows times as YYYY-MM-DD HH:mm:ss in local time and / for none', () => {
    const ms = new Date(2026, 10, 22, 9, 5, 7).getTime();
    expect(formatDateTime(ms)).toBe('2026-11-22 09:05:07');
    expect(formatDate(ms)).toBe('2026-11-22');
    expect(formatDateTime(null)).toBe('/');
    expect(formatDate(undefined)).toBe('/');
  });

  it('shows times in the configured zone once the shell knows it', () => {
    const ms = Date.UTC(2026, 10, 22, 23, 30, 5);
    expect(formatInZone(ms, 'Asia/Yangon')).toBe('2026-11-23 06:00:05');
    expect(formatInZone(ms, 'America/New_York', true)).toBe('2026-11-22');
    setDisplayTimeZone('Pacific/Kiritimati');
    try {
      expect(formatDateTime(ms)).toBe('2026-11-23 13:30:05');
      expect(formatDate(ms)).toBe('2026-11-23');
      expect(formatDateTime(Date.UTC(2026, 0, 1, 10, 0, 0))).toBe('2026-01-02 00:00:00');
    } finally {
      setDisplayTimeZone(undefined);
    }
  });

  it('shows SYSTEM for a missing creator', () => {
    expect(userName({ nickname: 'Olivia' })).toBe('Olivia');
    expect(userName(null)).toBe('SYSTEM');
    expect(userName({ nickname: '' })).toBe('SYSTEM');
  });

  it('writes timings with thousands separators and sizes in Kib', () => {
    expect(formatMs(1234567)).toBe('1,234,567');
    expect(formatMs(null)).toBe('/');
    expect(formatKib(2048)).toBe('2 Kib');
    expect(formatKib(1536)).toBe('1.5 Kib');
  });
});
