import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ErrorCode } from '../../../../shared/errors.js';
import { BadRequestError } from '../../errors.js';
import { type ApiMiddleware, apiState } from './apiState.js';

export class MalformedJsonError extends BadRequestError {
  override name = 'MalformedJsonError';
  override code: number = ErrorCode.MalformedJson;
}

/**
 * Parses the JSON body with middy's own parser (base64 bodies included) and keeps the result
 * in the API state. The content type was already checked by bodyLimits with the spec's text,
 * so the parser's check is off; its parse failure (which middy answers with a 415) becomes the
 * 400 "Malformed JSON body" the API has always sent. The event's body is put back as sent.
 */
export function jsonBody(): ApiMiddleware {
  const parser = httpJsonBodyParser<APIGatewayProxyEventV2>({
    disableContentTypeCheck: true,
  } as Parameters<typeof httpJsonBodyParser>[0]);
  return {
    before: async (request) => {
      const state = apiState(request);
      const sent = request.event.body;
      if (!sent || (request.event.isBase64Encoded && Buffer.from(sent, 'base64').length === 0)) {
        state.body = undefined;
        return;
      }
      try {
        await parser.before?.(request as never);
        state.body = request.event.body as unknown;
      } catch (cause) {
        throw new MalformedJsonError('Malformed JSON body', { cause });
      } finally {
        request.event.body = sent;
      }
    },
  };
}
