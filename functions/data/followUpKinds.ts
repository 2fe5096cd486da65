// Every declared kind of follow-up (lib/db/outbox.ts): importing the modules that declare them
// registers each, so the sweeper can apply any entry it finds, whoever wrote it. In the sweeper's
// Lambda bundle these imports are all there is: a kind left out here stays pending there, logged
// as unknown (followUpKinds.test.ts checks that every declaring module is imported).

import '../autoCheck/slotFollowUps.js';
import '../bank/channelStatus.js';
import '../bank/deliveryMessages.js';
import '../bank/incidents.js';
import '../bank/record.js';
import '../bank/store.js';
import '../bankWebhook/deliveryFollowUps.js';
import '../checks/counts.js';
import '../checks/engine.js';
import '../checks/events.js';
import '../checks/operationEnd.js';
import '../checks/pauseResume.js';
import '../checks/taskEnd.js';
import '../incidents/service.js';
import '../notifications/service.js';
import { followUpKinds } from '../lib/db/outbox.js';

export function allFollowUpKinds(): string[] {
  return followUpKinds();
}
