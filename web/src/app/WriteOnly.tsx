import type { ReactNode } from 'react';
import { useCanWrite } from './auth';

/**
 * Controls that change something or reveal a secret, shown only to a role that may use them: a
 * viewer reads the screen without them (the server refuses a viewer's write with 403 anyway).
 */
export function WriteOnly({ children }: { children: ReactNode }): ReactNode {
  return useCanWrite() ? children : null;
}

/**
 * A form section whose every control a viewer sees but cannot use: a disabled fieldset disables
 * the inputs and buttons inside it natively, so an editor needs no read-only variant of its own.
 */
export function WritableSection({ children, className }: { children: ReactNode; className?: string }): ReactNode {
  const canWrite = useCanWrite();
  return (
    <fieldset disabled={!canWrite} className={className} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      {children}
    </fieldset>
  );
}
