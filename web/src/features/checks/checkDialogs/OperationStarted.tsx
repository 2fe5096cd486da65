import { Link, MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import type { Operation } from '@shared/schemas/checks';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { pathOf } from '@/app/paths';
import { useT } from '@/i18n';

/** Shown in a check dialog once the operation exists: the outcome is followed on its detail page. */
export function OperationStarted({
  operation,
  text,
  onOpen,
}: {
  operation: Operation;
  text: string;
  /** Called before navigating (the dialog closes). */
  onOpen(): void;
}): ReactNode {
  const t = useT();
  const navigate = useNavigate();
  const href = pathOf('operationDetail', { operationID: operation.id });
  return (
    <MessageBar intent="success" layout="multiline">
      <MessageBarBody>
        <MessageBarTitle>{t(text)}</MessageBarTitle>
        <Link
          href={href}
          onClick={(e) => {
            e.preventDefault();
            onOpen();
            navigate(href);
          }}
        >
          {t('Open operation {id}', { id: operation.id })}
        </Link>
      </MessageBarBody>
    </MessageBar>
  );
}
