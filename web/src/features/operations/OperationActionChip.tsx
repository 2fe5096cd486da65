import { InteractionTag, InteractionTagPrimary } from '@fluentui/react-components';
import { Pause16Regular, Play16Regular } from '@fluentui/react-icons';
import { OperationAction, type OperationActionValue, RunStatus } from '@shared/enums';
import type { Operation } from '@shared/schemas/checks';
import { type ReactElement, type ReactNode, useState } from 'react';
import { useT } from '@/i18n';
import { runOperationAction } from './operationsApi';

// Running shows Pause, paused shows Resume (spec section 4); other states offer nothing.
const chips: Partial<Record<Operation['status'], { action: OperationActionValue; icon: ReactElement }>> = {
  [RunStatus.values.Running]: { action: OperationAction.values.Pause, icon: <Pause16Regular /> },
  [RunStatus.values.Pause]: { action: OperationAction.values.Resume, icon: <Play16Regular /> },
};

/** The Pause or Resume chip of an operation; reloads the operation after either outcome. */
export function OperationActionChip({ operation, onDone }: { operation: Operation; onDone(): unknown }): ReactNode {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const chip = chips[operation.status];
  if (!chip) return null;
  const run = async () => {
    setBusy(true);
    try {
      await runOperationAction(operation.id, chip.action);
    } catch {
      // The failure tip is shown by the request layer.
    } finally {
      setBusy(false);
      await onDone();
    }
  };
  return (
    <InteractionTag shape="circular" appearance="brand" size="small" disabled={busy}>
      <InteractionTagPrimary icon={chip.icon} onClick={() => void run()}>
        {t(OperationAction.label(chip.action))}
      </InteractionTagPrimary>
    </InteractionTag>
  );
}
