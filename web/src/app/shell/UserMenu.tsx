import {
  Avatar,
  Button,
  Menu,
  MenuDivider,
  MenuGroupHeader,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { PasswordRegular, PersonRegular, SignOutRegular } from '@fluentui/react-icons';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { logout } from '@/features/auth/authApi';
import { useT } from '@/i18n';
import { clearAuth, useAuth } from '../auth';
import { LOGIN_PATH } from '../navigation';
import { pathOf } from '../paths';

const useStyles = makeStyles({
  trigger: { color: 'inherit', minWidth: 'auto', paddingInline: tokens.spacingHorizontalS },
  name: { marginLeft: tokens.spacingHorizontalS, fontWeight: tokens.fontWeightSemibold },
});

export function UserMenu(): ReactNode {
  const styles = useStyles();
  const t = useT();
  const auth = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const name = auth?.name || '';

  const signOut = async () => {
    // The server call only revokes the token; the user is signed out here whatever it answers.
    await logout().catch(() => undefined);
    clearAuth();
    queryClient.clear();
    navigate(LOGIN_PATH, { replace: true });
  };

  return (
    <Menu positioning="below-end">
      <MenuTrigger disableButtonEnhancement>
        <Button appearance="transparent" className={styles.trigger} aria-label={t('User menu')}>
          <Avatar name={name} size={28} color="colorful" />
          <span className={styles.name}>{name}</span>
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuGroupHeader>{auth?.s === 'super' ? t('Super user') : t('Operator')}</MenuGroupHeader>
          <MenuItem icon={<PersonRegular />} onClick={() => navigate(pathOf('profile'))}>
            {t('Profile')}
          </MenuItem>
          <MenuItem icon={<PasswordRegular />} onClick={() => navigate(pathOf('password'))}>
            {t('Password')}
          </MenuItem>
          <MenuDivider />
          <MenuItem icon={<SignOutRegular />} onClick={() => void signOut()}>
            {t('Logout')}
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
