import { Button } from '@fluentui/react-components';
import { ArrowSync16Regular } from '@fluentui/react-icons';
import type { BankAccountDetail } from '@shared/schemas/bank';
import type { RevealedWebhookSecret } from '@shared/schemas/bankWebhook';
import { type ReactNode, useState } from 'react';
import { request } from '@/api/request';
import { ConfirmDialog } from '@/components/dialog';
import { SecretCell } from '@/components/secret';
import { useT } from '@/i18n';

const secretUrl = (account: Pick<BankAccountDetail, 'id'>) => `/bank/bank-account/${account.id}/webhook-secret`;

/** The audited reveal of the secret that signs the account's webhook deliveries (made on first use). */
async function revealSigningSecret(account: Pick<BankAccountDetail, 'id'>): Promise<string> {
  const revealed = await request<RevealedWebhookSecret>({
    url: secretUrl(account),
    failureTip: 'Show signing secret failed.',
  });
  return revealed.webhook_secret;
}

/**
 * The Standard Webhooks signing secret of the account's deliveries (docs/notifications.md): masked,
 * revealed one at a time through the audited call, and rotated after a confirmation, since the
 * receiver rejects the next delivery until it verifies with the new secret.
 */
export function SigningSecret({ account }: { account: Pick<BankAccountDetail, 'id'> }): ReactNode {
  const t = useT();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const rotate = async () => {
    setAsking(false);
    setBusy(true);
    try {
      await request<RevealedWebhookSecret>({
        method: 'POST',
        url: secretUrl(account),
        successTip: 'Signing secret rotated.',
        failureTip: 'Rotate signing secret failed.',
      });
    } catch {
      // The failure tip has been shown; the old secret still signs.
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <SecretCell
        reveal={() => revealSigningSecret(account)}
        showLabel="Show signing secret"
        hideLabel="Hide signing secret"
      />
      <Button
        size="small"
        appearance="subtle"
        icon={<ArrowSync16Regular />}
        aria-label={t('Rotate signing secret')}
        title={t('Rotate signing secret')}
        disabled={busy}
        onClick={() => setAsking(true)}
      />
      <ConfirmDialog
        open={asking}
        message={t(
          'Rotate the signing secret? Deliveries are signed with the new secret at once; the receiver rejects them until it verifies with the new one.',
        )}
        confirmLabel="Rotate"
        onConfirm={() => void rotate()}
        onCancel={() => setAsking(false)}
      />
    </>
  );
}
