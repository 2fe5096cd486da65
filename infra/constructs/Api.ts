import { Stack } from 'aws-cdk-lib';
import {
  ApiMapping,
  DomainName,
  HttpApi,
  HttpMethod,
  HttpStage,
  LogGroupLogDestination,
  SecurityPolicy,
} from 'aws-cdk-lib/aws-apigatewayv2';
import type { ICertificate } from 'aws-cdk-lib/aws-certificatemanager';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { RemovalPolicy } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import { INBOUND_BANK_WEBHOOK_PATH } from '../../shared/schemas/bankWebhook.js';
import { TELEGRAM_WEBHOOK_PATH } from '../../shared/schemas/telegram.js';

export interface ApiProps {
  stage: string;
  handler: IFunction;
  throttle: { rateLimit: number; burstLimit: number };
  logRetentionDays: number;
  removalPolicy: RemovalPolicy;
  /**
   * The stage's custom domain and a certificate for it in this region. The API then answers only
   * there (its execute-api address is switched off) and CloudFront reaches it by that name.
   */
  domain?: { name: string; certificate: ICertificate };
}

/** Every route lives under this prefix; functions/lib/http/apiHandler.ts routes inside it. */
export const API_ROUTE = '/api/v1/{proxy+}';
export const INBOUND_WEBHOOK_ROUTE = INBOUND_BANK_WEBHOOK_PATH;

/** The HTTP API in front of the api Lambda. The console reaches it through CloudFront's /api/* path. */
export class Api extends Construct {
  readonly httpApi: HttpApi;
  /**
   * Host name CloudFront connects to: the regional endpoint of the custom domain when there is
   * one (CloudFront then forwards the viewer's Host, the custom domain, for API Gateway to route
   * by), else the execute-api host.
   */
  readonly originDomainName: string;
  /** Whether the API answers only at its custom domain (DisableExecuteApiEndpoint). */
  readonly executeApiDisabled: boolean;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.httpApi = new HttpApi(this, 'HttpApi', {
      apiName: `patrol-${props.stage}`,
      // Same origin behind CloudFront: no CORS preflights to answer.
      createDefaultStage: false,
      // With a custom domain, CloudFront is the only caller: the execute-api address is off. Without
      // one it is the only address CloudFront can reach, and the API's origin gate refuses every
      // request there that lacks the origin secret (functions/lib/http/middlewares/originGate.ts).
      disableExecuteApiEndpoint: props.domain !== undefined,
    });
    this.executeApiDisabled = props.domain !== undefined;
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetentionDays as RetentionDays,
      removalPolicy: props.removalPolicy,
    });
    const stage = new HttpStage(this, 'DefaultStage', {
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
    // Telegram's deliveries of the bot's updates (button presses, /start), the same way.
    this.httpApi.addRoutes({ path: TELEGRAM_WEBHOOK_PATH, methods: [HttpMethod.POST], integration });
    if (props.domain) {
      const domain = new DomainName(this, 'Domain', {
        domainName: props.domain.name,
        certificate: props.domain.certificate,
        securityPolicy: SecurityPolicy.TLS_1_2,
      });
      new ApiMapping(this, 'Mapping', { api: this.httpApi, domainName: domain, stage });
      this.originDomainName = domain.regionalDomainName;
    } else {
      this.originDomainName = `${this.httpApi.apiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}`;
    }
  }
}
