import { api, login } from './api.js';

/**
 * Issue 45's group wait, grouping and escalation off on a test stack whose tests make many sites
 * fail the same check within minutes (they would share parents), wait for each incident's first
 * message at once and count its edits (an escalation edits it). The shared stack runs so
 * (globalStack.ts); tests of grouping and escalation run on a stack of their own
 * (tests/restarts/incidentGrouping.test.ts).
 */
export async function quietIncidentGrouping(url: string, adminPassword: string): Promise<void> {
  const token = await login(url, 'admin', adminPassword);
  const client = api(url);
  const document = (await client.get('/api/v1/super/system-config', { token })).body.data.document;
  const saved = await client.post('/api/v1/super/system-config', {
    token,
    body: {
      ...document,
      alerts: { ...document.alerts, group_wait_seconds: 0, correlate_min_sites: 0, escalate_after_minutes: 0 },
    },
  });
  if (saved.status !== 200) throw new Error(`the test stack's alerts config: ${JSON.stringify(saved.body)}`);
}
