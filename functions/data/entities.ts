// Every stored entity of the product: importing the feature stores declares them (defineEntity
// registers each in ENTITIES), so the data-maintenance handlers walk all of them and a new
// feature's entity is swept and repaired without a change here beyond its import.

import '../audit/store.js';
import '../checks/store.js';
import '../notifications/store.js';
import '../sites/store.js';
import '../users/userEntity.js';
import { ENTITIES } from '../lib/db/entity.js';

export function allEntities() {
  return [...ENTITIES.values()];
}
