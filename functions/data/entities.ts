// Every stored entity of the product: importing the feature stores declares them (defineEntity
// registers each in ENTITIES), so the data-maintenance handlers walk all of them and a new
// feature's entity is swept and repaired without a change here beyond its import. In a Lambda
// bundle (dataRepair, expirySweeper) these imports are all there is: an entity left out here is
// neither repaired nor swept there (entities.test.ts checks every defining module is imported).

import '../apiTokens/store.js';
import '../audit/store.js';
import '../autoCheck/store.js';
import '../bank/entities.js';
import '../bankAlertRules/store.js';
import '../checks/store.js';
import '../incidents/store.js';
import '../maintenance/store.js';
import '../notifications/store.js';
import '../notifications/telegram/settingsStore.js';
import '../reports/store.js';
import '../sites/store.js';
import '../systemConfig/store.js';
import '../telegramBot/linkStore.js';
import '../users/userEntity.js';
import { ENTITIES } from '../lib/db/entity.js';

export function allEntities() {
  return [...ENTITIES.values()];
}
