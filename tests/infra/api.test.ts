import { describe, expect, it } from 'vitest';
import { synthStack } from './synthStack.js';
import { liveAliasId, ofType, resources } from './templateQueries.js';

describe('Api: the HTTP API in front of the api Lambda', () => {
  const { template } = synthStack();

  it('sends every method under /api/v1 to the api function with the v2 payload', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Route', 3);
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'ANY /api/v1/{proxy+}' });
    const [[, integration]] = ofType(template, 'AWS::ApiGatewayV2::Integration');
    expect(integration.Properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    // Its live alias, which a release shifts (a canary in prod).
    expect(integration.Properties?.IntegrationUri).toEqual({ Ref: liveAliasId(template, 'api') });
  });

  it('gives the inbound bank webhook and Telegram’s their own POST routes outside /api/v1, to the same function', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'POST /webhook/bank' });
    template.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'POST /webhook/telegram' });
    const routes = ofType(template, 'AWS::ApiGatewayV2::Route').map(([, r]) => JSON.stringify(r.Properties?.Target));
    expect(new Set(routes).size).toBe(1);
  });

  it('throttles the stage at the rate of the dev settings and logs every request', () => {
    const [[, stage]] = ofType(template, 'AWS::ApiGatewayV2::Stage');
    expect(stage.Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 },
    });
    const logGroupId = stage.Properties?.AccessLogSettings.DestinationArn['Fn::GetAtt'][0];
    expect(resources(template)[logGroupId].Type).toBe('AWS::Logs::LogGroup');
    expect(JSON.parse(stage.Properties?.AccessLogSettings.Format)).toMatchObject({
      requestId: '$context.requestId',
      status: '$context.status',
    });
  });

  it('throttles prod at the prod settings', () => {
    const prod = synthStack({ stage: 'prod' }).template;
    prod.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
    });
  });
});
