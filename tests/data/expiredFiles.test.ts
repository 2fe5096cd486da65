// The configured retention of videos reaches the files: when the sweeper deletes an expired video
// row or raw log, its video or screenshot leaves the bucket with it; a live row's file stays.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetClients, s3Client } from '../../functions/lib/aws/clients.js';
import { putObject } from '../../functions/lib/storage/objects.js';
import { checkStore } from '../../functions/checks/store.js';
import { handler as sweep } from '../../functions/data/sweep.js';
import { LOCAL_CREDENTIALS } from '../../scripts/local/engines/credentials.js';
import { type S3Engine, startS3 } from '../../scripts/local/engines/s3.js';
import { DEFAULT_SYSTEM_CONFIG } from '../../shared/schemas/systemConfig.js';
import { setupDynamo } from './engine.js';

setupDynamo();

let s3: S3Engine;
let dir = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'patrol-files-'));
  s3 = await startS3({ directory: dir, buckets: ['patrol-test-videos'] });
  process.env.S3_ENDPOINT = s3.endpoint;
  process.env.VIDEO_BUCKET = 'patrol-test-videos';
  // s3rver knows one key; dynalite takes any.
  process.env.AWS_ACCESS_KEY_ID = LOCAL_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = LOCAL_CREDENTIALS.secretAccessKey;
  resetClients();
});
afterAll(async () => {
  await s3?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const DAY = 24 * 3600 * 1000;
const exists = (key: string) =>
  s3Client()
    .send(new HeadObjectCommand({ Bucket: 'patrol-test-videos', Key: key }))
    .then(() => true)
    .catch(() => false);

describe('expired files', () => {
  it('deletes the video and screenshot of expired rows with them, and keeps those of live rows', async () => {
    const old = Date.now() - (DEFAULT_SYSTEM_CONFIG.retention_days.videos + 1) * DAY;
    const files = ['checks/1/1/old.webm', 'checks/1/1/old.png', 'checks/1/1/new.webm'];
    for (const key of files) await putObject(key, Buffer.from('x'), 'application/octet-stream');

    const video = (key: string, created_at: number) =>
      checkStore().videos.create({
        process: 1,
        size: 1,
        key,
        content_type: 'video/webm',
        duration_ms: 1,
        raw_log_id: 1,
        subtask_id: 1,
        created_at,
      });
    const expired = await video('checks/1/1/old.webm', old);
    const live = await video('checks/1/1/new.webm', Date.now());
    const rawLog = await checkStore().rawLogs.create({
      process: 1,
      business_id: 1,
      subtask_id: 1,
      success: false,
      remark: 'failed',
      result: {},
      steps: [],
      console_errors: [],
      video_id: null,
      screenshot_key: 'checks/1/1/old.png',
      created_at: Date.now() - (DEFAULT_SYSTEM_CONFIG.retention_days.raw_logs + 1) * DAY,
    } as never);

    const { rows } = await sweep();
    expect(rows).toBeGreaterThanOrEqual(2);
    expect(await checkStore().videos.get(expired.id)).toBeUndefined();
    expect(await checkStore().rawLogs.get(rawLog.id)).toBeUndefined();
    expect(await exists('checks/1/1/old.webm')).toBe(false);
    expect(await exists('checks/1/1/old.png')).toBe(false);
    expect(await checkStore().videos.get(live.id)).toBeDefined();
    expect(await exists('checks/1/1/new.webm')).toBe(true);
  });
});
