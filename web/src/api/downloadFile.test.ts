import { describe, expect, it } from 'vitest';
import { dispositionFileName } from './downloadFile';

describe('the file name of a download', () => {
  it('reads a quoted or bare filename, and prefers filename* (UTF-8)', () => {
    expect(dispositionFileName('attachment; filename="patrol-report-week-2026-11-30.csv"')).toBe(
      'patrol-report-week-2026-11-30.csv',
    );
    expect(dispositionFileName('attachment; filename=report.pdf')).toBe('report.pdf');
    expect(dispositionFileName(`attachment; filename="r.csv"; filename*=UTF-8''%E5%91%A8%E6%8A%A5.csv`)).toBe(
      '周报.csv',
    );
  });

  it('has none without a header or a name in it', () => {
    expect(dispositionFileName(null)).toBeUndefined();
    expect(dispositionFileName('inline')).toBeUndefined();
  });
});
