import type { AddressInfo } from 'node:net';

export interface S3Engine {
  endpoint: string;
  stop(): Promise<void>;
}

// Videos play in the console's <video> element straight from presigned URLs, which needs
// cross-origin GET with Range (seeking) and the range headers readable by the page.
const VIDEO_CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>Content-Range</ExposeHeader>
    <ExposeHeader>Accept-Ranges</ExposeHeader>
    <ExposeHeader>Content-Length</ExposeHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/** s3rver inside this process on loopback; objects persist under `directory`. */
export async function startS3(opts: { directory: string; buckets: string[]; port?: number }): Promise<S3Engine> {
  // Loaded here, not at the top: the import takes a moment that the DynamoDB child can use to boot.
  const { default: S3rver } = await import('s3rver');
  const server = new S3rver({
    address: '127.0.0.1',
    port: opts.port ?? 0,
    directory: opts.directory,
    silent: true,
    configureBuckets: opts.buckets.map((name) => ({ name, configs: [VIDEO_CORS] })),
  });
  const { port } = (await server.run()) as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      // Idle keep-alive sockets from SDK clients would hold close() open.
      (server as unknown as { httpServer?: { closeAllConnections?: () => void } }).httpServer?.closeAllConnections?.();
      await server.close();
    },
  };
}
