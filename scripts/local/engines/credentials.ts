/**
 * One fake identity for every local engine: s3rver only accepts the access key `S3RVER`,
 * and dynalite and fauxqs accept anything.
 */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;
