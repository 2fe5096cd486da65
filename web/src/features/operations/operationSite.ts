import { OperationName } from '@shared/enums';
import type { Operation } from '@shared/schemas/checks';

/** The site of a single-site operation; any other operation spans sites and says so (spec section 3). */
export function operationSiteText(op: Pick<Operation, 'name' | 'site'>): string {
  if (op.name === OperationName.values.SingleSite) return op.site?.name ?? '/';
  return OperationName.label(OperationName.values.MultiSites);
}
