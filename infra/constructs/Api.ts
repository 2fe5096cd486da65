import { Stack } from 'aws-cdk-lib';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { RemovalPolicy } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { INBOUND_BANK_WEBHOOK_PATH } from '../../shared/schemas/bankWebhook.js';

export interface ApiProps {
  stage: string;
  handler: IFunction;
  throttle: { rateLimit: number; burstLimit: number };
  logRetentionDays: number;
  removalPolicy: RemovalPolicy;
}

/** Every route lives under this prefix; functions/lib/http/apiHandler.ts routes inside it. */
export const API_ROUTE = '/api/v1/{proxy+}';
export const INBOUND_WEBHOOK_ROUTE = INBOUND_BANK_WEBHOOK_PATH;

/** The HTTP API in front of the api Lambda. The console reaches it through CloudFront's /api/* path. */
export class Api extends Construct {
  readonly httpApi: HttpApi;
  /** Host name of the execute-api endpoint, for CloudFront's origin. */
  readonly domainName: string;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: `patrol-${props.stage}`,
      // Same origin behind CloudFront: no CORS preflights to answer.
      createDefaultStage: false,
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetentionDays as RetentionDays,
      removalPolicy: props.removalPolicy,
    });
    new HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            time: '$context.requestTimeEpoch',
            method: '$context.httpMethod',
            path: '$context.path',
            status: '$context.status',
            latencyMs: '$context.responseLatency',
            integrationLatencyMs: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            ip: '$context.identity.sourceIp',
            userAgent: '$context.identity.userAgent',
          }),
        ),
      },
    });
    const integration = new HttpLambdaIntegration('Handler', props.handler);
    this.httpApi.addRoutes({ path: API_ROUTE, methods: [HttpMethod.ANY], integration });
    // The inbound bank webhook lives outside /api/v1 (shared/schemas/bankWebhook.ts): its own
    // route, POST only, to the same function, which routes it like the local server does.
    this.httpApi.addRoutes({ path: INBOUND_WEBHOOK_ROUTE, methods: [HttpMethod.POST], integration });
    this.domainName = `${this.httpApi.apiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}`;
  }
}
