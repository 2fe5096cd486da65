import { Button, type ButtonProps, Spinner } from '@fluentui/react-components';

/**
 * A form's or dialog's action while its call runs: disabled, with a spinner for its icon (primary
 * unless told otherwise). One definition for every submit and confirm that waits on the API.
 */
export function BusyButton({ busy, disabled, icon, ...props }: ButtonProps & { busy: boolean }) {
  return (
    <Button appearance="primary" {...props} disabled={busy || disabled} icon={busy ? <Spinner size="tiny" /> : icon} />
  );
}
