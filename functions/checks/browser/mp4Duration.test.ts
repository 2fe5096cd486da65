import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mp4DurationMs } from './mp4Duration';

const dir = mkdtempSync(join(tmpdir(), 'mp4-duration-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real file from ffmpeg: `seconds` of a test pattern at 10 fps, plain or fragmented. */
function encode(seconds: number, fragmented: boolean): Buffer {
  const file = join(dir, `${seconds}-${fragmented}.mp4`);
  const flags = fragmented ? ['-movflags', 'frag_keyframe+empty_moov', '-g', '5'] : [];
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=160x90:rate=10`,
    '-t',
    String(seconds),
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    ...flags,
    file,
  ]);
  return readFileSync(file);
}

describe('the playing time of a video file', () => {
  it('is read from a plain MP4', () => {
    expect(mp4DurationMs(encode(1.3, false))).toBe(1300);
  });

  it('is read from a fragmented MP4 (how Chromium records), summing every fragment', () => {
    // -g 5 makes a fragment every half second, so the sum spans several moof boxes.
    expect(mp4DurationMs(encode(2.7, true))).toBe(2700);
  });

  it('is unknown for bytes that are not an MP4 or are cut short', () => {
    expect(mp4DurationMs(Buffer.from('not a video'))).toBeUndefined();
    expect(mp4DurationMs(encode(1, false).subarray(0, 40))).toBeUndefined();
  });
});
