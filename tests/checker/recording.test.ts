import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CheckerFixture, probeVideo, startCheckerFixture } from './checkerFixture';

let f: CheckerFixture;
beforeAll(async () => {
  f = await startCheckerFixture();
});
afterAll(() => f?.close());

describe('the video of a check', () => {
  it('is an AV1 MP4 recorded inside Chromium, longer than a second', async () => {
    const { outcome, video } = await f.check(2, { record: true });

    expect(outcome.success, outcome.msg).toBe(true);
    expect(video).toMatchObject({ contentType: 'video/mp4', codec: 'av1' });
    expect(video!.bytes.length).toBeGreaterThan(1000);
    expect(video!.durationMs).toBeGreaterThan(1000);
    const probed = await probeVideo(video!.bytes);
    expect(probed.formatName).toContain('mp4');
    expect(probed.codec).toBe('av1');
    expect(probed.durationS).toBeGreaterThan(1);
  });

  it('falls back to an H.264 MP4 through ffmpeg when asked for the screencast recorder', async () => {
    const { video } = await f.check(2, { record: true, recorder: 'screencast-x264' });

    expect(video).toMatchObject({ contentType: 'video/mp4', codec: 'h264' });
    const probed = await probeVideo(video!.bytes);
    expect(probed.codec).toBe('h264');
    expect(probed.durationS).toBeGreaterThan(1);
  });

  it('is kept for a failed check too, along with a PNG of the last page', async () => {
    const { outcome, video, screenshot } = await f.check(2, { user: 'closed09', record: true });

    expect(outcome.success).toBe(false);
    expect(video?.bytes.length).toBeGreaterThan(0);
    expect(screenshot?.subarray(1, 4).toString('latin1')).toBe('PNG');
  });
});
