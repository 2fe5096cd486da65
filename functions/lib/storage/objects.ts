import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { s3Client } from '../aws/clients.js';
import { config } from '../config.js';

/** Videos and screenshots: written once by a checker, read through short-lived addresses. */
export async function putObject(key: string, body: Buffer, contentType: string): Promise<void> {
  await s3Client().send(
    new PutObjectCommand({ Bucket: config.videoBucket, Key: key, Body: body, ContentType: contentType }),
  );
}

/** A GET address valid for an hour, so a <video> element can play without our auth header. */
export function objectUrl(key: string, expiresIn = 3600): Promise<string> {
  return getSignedUrl(s3Client(), new GetObjectCommand({ Bucket: config.videoBucket, Key: key }), { expiresIn });
}

/** A file's bytes, or undefined when there is none (a report's figures and PDF, served through the API). */
export async function getObject(key: string): Promise<Buffer | undefined> {
  try {
    const out = await s3Client().send(new GetObjectCommand({ Bucket: config.videoBucket, Key: key }));
    return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : undefined;
  } catch (error) {
    if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

/** Removes a file whose row expired; a file already gone is no error (S3 deletes are idempotent). */
export async function deleteObject(key: string): Promise<void> {
  await s3Client().send(new DeleteObjectCommand({ Bucket: config.videoBucket, Key: key }));
}
