// Video of a check. Chromium records a page itself (puppeteer's page.record over CDP
// Page.startScreenRecording: AV1 in fragmented MP4, no ffmpeg, ~50 ms to stop); that is the
// default. Where it is missing, CDP screencast JPEG frames go through ffmpeg libx264 instead
// (H.264 MP4, needs ffmpeg on PATH).
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession, Page, ScreenRecording } from 'puppeteer-core';
import { mp4DurationMs } from './mp4Duration';

export interface RecordedVideo {
  bytes: Buffer;
  contentType: 'video/mp4';
  /** Playing time, read from the file (the wall time recorded when the file cannot be read). */
  durationMs: number;
  codec: 'av1' | 'h264';
}

export type RecorderKind = 'screen-recording' | 'screencast-x264';

export interface Recorder {
  readonly kind: RecorderKind | 'auto';
  start(page: Page): Promise<void>;
  /** The video so far; undefined when nothing could be recorded (e.g. the page crashed). */
  stop(): Promise<RecordedVideo | undefined>;
}

export interface RecordingOptions {
  maxWidth: number;
  maxHeight: number;
  frameRate: number;
}

export const DEFAULT_RECORDING: RecordingOptions = { maxWidth: 1280, maxHeight: 720, frameRate: 10 };

/**
 * In-browser recording through puppeteer's `page.record()` (CDP Page.startScreenRecording): the
 * MP4 arrives as a stream while the page runs, and ends once `stop()` has flushed the last fragment.
 */
export class ScreenRecordingRecorder implements Recorder {
  readonly kind = 'screen-recording' as const;
  private recording?: ScreenRecording;
  private collected?: Promise<Buffer>;
  private startedAt = 0;

  constructor(private readonly opts: RecordingOptions = DEFAULT_RECORDING) {}

  async start(page: Page): Promise<void> {
    const recording = await page.record({ ...this.opts });
    this.recording = recording;
    this.collected = collect(recording);
    this.startedAt = performance.now();
  }

  async stop(): Promise<RecordedVideo | undefined> {
    const { recording, collected } = this;
    if (!recording || !collected) return undefined;
    this.recording = undefined;
    try {
      const wallMs = Math.round(performance.now() - this.startedAt);
      await recording.stop();
      const bytes = await collected;
      if (!bytes.length) return undefined;
      return { bytes, contentType: 'video/mp4', durationMs: mp4DurationMs(bytes) ?? wallMs, codec: 'av1' };
    } catch {
      return undefined;
    }
  }
}

/** Every chunk of a recording's stream; a stream that breaks (the page crashed) keeps what came. */
async function collect(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
  } catch {
    // What arrived before the break is still a playable fragmented MP4 up to its last fragment.
  }
  return Buffer.concat(chunks);
}

/**
 * Fallback: screencast JPEG frames resampled to a fixed frame rate (the last frame repeats while
 * the page is still) and encoded by ffmpeg, so the file's duration is the wall time recorded.
 */
export class ScreencastX264Recorder implements Recorder {
  readonly kind = 'screencast-x264' as const;
  private cdp?: CDPSession;
  private stopFeeding?: () => void;
  private finished?: Promise<{ file: string; dir: string; frames: number; code: number | null }>;

  constructor(
    private readonly opts: RecordingOptions = DEFAULT_RECORDING,
    private readonly ffmpegPath = 'ffmpeg',
  ) {}

  async start(page: Page): Promise<void> {
    const dir = await mkdtemp(join(tmpdir(), 'patrol-rec-'));
    const file = join(dir, 'video.mp4');
    const { frameRate, maxWidth, maxHeight } = this.opts;
    const ffmpeg = spawn(
      this.ffmpegPath,
      [
        ...['-loglevel', 'error', '-f', 'image2pipe', '-framerate', String(frameRate), '-c:v', 'mjpeg', '-i', '-'],
        ...['-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2', '-c:v', 'libx264', '-preset', 'ultrafast'],
        ...['-pix_fmt', 'yuv420p', '-movflags', '+faststart', '-y', file],
      ],
      { stdio: ['pipe', 'ignore', 'ignore'] },
    );
    const exited = new Promise<number | null>((resolve) => {
      ffmpeg.once('exit', resolve);
      ffmpeg.once('error', () => resolve(-1));
    });
    ffmpeg.stdin.on('error', () => {});
    const cdp = await page.createCDPSession();
    let last: Buffer | undefined;
    let frames = 0;
    cdp.on('Page.screencastFrame', (ev) => {
      last = Buffer.from(ev.data, 'base64');
      cdp.send('Page.screencastFrameAck', { sessionId: ev.sessionId }).catch(() => {});
    });
    await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 50, maxWidth, maxHeight, everyNthFrame: 3 });
    // The video's clock is the wall clock: a late timer tick (a busy machine) writes the frames it
    // owes, repeating the latest image, so the recording lasts as long as the check did.
    const startedAt = Date.now();
    const catchUp = () => {
      const due = Math.floor(((Date.now() - startedAt) * frameRate) / 1000);
      while (last && frames < due && ffmpeg.stdin.writable) {
        ffmpeg.stdin.write(last);
        frames += 1;
      }
    };
    const tick = setInterval(catchUp, 1000 / frameRate);
    this.cdp = cdp;
    this.stopFeeding = () => {
      clearInterval(tick);
      catchUp();
      ffmpeg.stdin.end();
    };
    this.finished = exited.then((code) => ({ file, dir, frames, code }));
  }

  async stop(): Promise<RecordedVideo | undefined> {
    const { cdp, stopFeeding, finished } = this;
    if (!cdp || !stopFeeding || !finished) return undefined;
    this.cdp = undefined;
    await cdp.send('Page.stopScreencast').catch(() => {});
    await cdp.detach().catch(() => {});
    stopFeeding();
    const { file, dir, frames, code } = await finished;
    try {
      if (code !== 0 || frames === 0) return undefined;
      const bytes = await readFile(file);
      return {
        bytes,
        contentType: 'video/mp4',
        durationMs: mp4DurationMs(bytes) ?? Math.round((frames * 1000) / this.opts.frameRate),
        codec: 'h264',
      };
    } catch {
      return undefined;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

/** In-browser recording when the browser has it, else the ffmpeg fallback. */
export class AutoRecorder implements Recorder {
  readonly kind = 'auto' as const;
  private active?: Recorder;

  constructor(private readonly opts: RecordingOptions = DEFAULT_RECORDING) {}

  async start(page: Page): Promise<void> {
    const native = new ScreenRecordingRecorder(this.opts);
    try {
      await native.start(page);
      this.active = native;
    } catch {
      const fallback = new ScreencastX264Recorder(this.opts);
      await fallback.start(page);
      this.active = fallback;
    }
  }

  stop(): Promise<RecordedVideo | undefined> {
    return this.active?.stop() ?? Promise.resolve(undefined);
  }
}

export function createRecorder(
  kind: RecorderKind | 'auto' = 'auto',
  opts: RecordingOptions = DEFAULT_RECORDING,
): Recorder {
  if (kind === 'screen-recording') return new ScreenRecordingRecorder(opts);
  if (kind === 'screencast-x264') return new ScreencastX264Recorder(opts);
  return new AutoRecorder(opts);
}
