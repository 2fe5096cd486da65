// Viewer-request code of a CloudFront Function (cloudfront-js-2.0) on the console's behaviour only.
//
// Why not distribution-wide custom error responses (403/404 -> /index.html)? CloudFront applies
// those to every origin, so the API's own 403 and 404 envelopes under /api/* would be replaced
// by the HTML page. Rewriting console routes before they reach S3 leaves API errors untouched.
export const SPA_FALLBACK_CODE = `function handler(event) {
  var request = event.request;
  var last = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  // A console route (history mode) has no file extension; files (assets, favicon) keep their path.
  if (last.indexOf('.') === -1) {
    request.uri = '/index.html';
  }
  return request;
}`;
