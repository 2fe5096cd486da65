/**
 * A signer for the local engines only (dynalite, DynamoDB Local, fauxqs): they read the
 * Authorization header's shape (who calls, from which region) but never verify its signature.
 * SigV4's HMACs and key derivation were a quarter of a DynamoDB call's client CPU on this machine
 * (GetItem: 333-386 µs signed, 255 µs stamped; the bank bench's profile put signing at ~10 % of
 * the whole process), so locally the header is stamped instead of computed. In the cloud no
 * endpoint is configured and the SDK's own SigV4 signer runs (see clients.ts).
 */
export function localSigner(service: string, region: string) {
  const accessKey = process.env.AWS_ACCESS_KEY_ID || 'local';
  return {
    async sign<Request extends { headers: Record<string, string> }>(request: Request): Promise<Request> {
      const stamp = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '');
      request.headers['x-amz-date'] = stamp;
      request.headers.authorization =
        `AWS4-HMAC-SHA256 Credential=${accessKey}/${stamp.slice(0, 8)}/${region}/${service}/aws4_request, ` +
        'SignedHeaders=host;x-amz-date, Signature=local';
      return request;
    },
  };
}
