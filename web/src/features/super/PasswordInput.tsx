import { Button, Input, type InputProps, Tooltip } from '@fluentui/react-components';
import { EyeOffRegular, EyeRegular, KeyRegular } from '@fluentui/react-icons';
import { type ReactNode, useState } from 'react';
import { useT } from '@/i18n';

/** A password field whose value can be shown, so a super user can read back what they set for someone. */
export function PasswordInput(props: Omit<InputProps, 'type' | 'contentAfter'>): ReactNode {
  const t = useT();
  const [shown, setShown] = useState(false);
  const label = shown ? t('Hide password') : t('Show password');
  return (
    <Input
      {...props}
      type={shown ? 'text' : 'password'}
      contentBefore={<KeyRegular />}
      contentAfter={
        <Tooltip content={label} relationship="label">
          <Button
            type="button"
            size="small"
            appearance="transparent"
            icon={shown ? <EyeOffRegular /> : <EyeRegular />}
            onClick={() => setShown((s) => !s)}
          />
        </Tooltip>
      }
    />
  );
}
