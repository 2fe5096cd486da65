import {
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  makeStyles,
  Text,
  Tooltip,
  tokens,
} from '@fluentui/react-components';
import { KeyRegular, PersonRegular, ShieldKeyholeRegular } from '@fluentui/react-icons';
import { ErrorCode } from '@shared/envelope';
import type { LoginAnswer, LoginResult, SecondFactorMethod } from '@shared/schemas/auth';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { isApiError } from '@/api/ApiError';
import { setAuth } from '@/app/auth';
import { safeRedirect } from '@/app/guards';
import { Logo } from '@/app/Logo';
import { LocaleSwitcher } from '@/app/shell/LocaleSwitcher';
import { BusyButton } from '@/components/form/BusyButton';
import { useT } from '@/i18n';
import { fetchCaptcha, login } from './authApi';
import { EnrollStep } from './EnrollStep';
import { SecondFactorStep } from './SecondFactorStep';
import { FIRST_STEP_METHODS } from './signInMethods';

const useStyles = makeStyles({
  page: {
    minHeight: '100vh',
    display: 'grid',
    placeItems: 'center',
    padding: tokens.spacingHorizontalL,
    boxSizing: 'border-box',
    backgroundColor: tokens.colorNeutralBackground3,
    backgroundImage:
      'radial-gradient(1200px 600px at 10% -10%, rgba(47,140,234,0.18), transparent 60%), radial-gradient(900px 500px at 110% 110%, rgba(11,79,150,0.16), transparent 60%)',
  },
  locale: { position: 'fixed', top: tokens.spacingVerticalM, right: tokens.spacingHorizontalM },
  card: {
    width: '100%',
    maxWidth: '380px',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalXXL}`,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusXLarge,
    boxShadow: tokens.shadow16,
  },
  head: { display: 'flex', flexDirection: 'column', alignItems: 'center', gap: tokens.spacingVerticalS },
  product: {
    fontSize: tokens.fontSizeHero700,
    lineHeight: tokens.lineHeightHero700,
    fontWeight: tokens.fontWeightSemibold,
  },
  sub: { color: tokens.colorNeutralForeground3 },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  captchaRow: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'stretch' },
  captchaInput: { flexGrow: 1 },
  captchaImage: {
    height: '32px',
    minWidth: '100px',
    padding: 0,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    backgroundColor: tokens.colorNeutralBackground1,
    cursor: 'pointer',
    overflow: 'hidden',
    display: 'grid',
    placeItems: 'center',
  },
  footer: { textAlign: 'center', color: tokens.colorNeutralForeground4 },
});

interface CaptchaState {
  id: string;
  image: string;
}

/** Where the sign-in is (docs/sign-in.md): the password, then a code, or enrolment when the policy asks. */
type Step =
  | { kind: 'password' }
  | { kind: 'second_factor'; ticket: string; methods: readonly SecondFactorMethod[] }
  | { kind: 'enroll'; ticket: string };

const STEP_TEXT: Record<Step['kind'], string> = {
  password: 'Sign in to the console',
  second_factor: 'Two-step sign-in',
  enroll: 'Set up two-step sign-in',
};

/** Errors a user can act on; everything else stays hidden, as the spec asks of the login call. */
const shownErrors: Readonly<Record<number, string>> = {
  [ErrorCode.BadCredentials]: 'Wrong username or password.',
  [ErrorCode.CaptchaRequired]: 'Please input the captcha.',
  [ErrorCode.CaptchaWrong]: 'Wrong captcha.',
};

export default function LoginPage(): ReactNode {
  const styles = useStyles();
  const t = useT();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [captcha, setCaptcha] = useState<CaptchaState | null>(null);
  const [answer, setAnswer] = useState('');
  const [touched, setTouched] = useState(false);
  // The captcha field is judged only once the user has tried to send it.
  const [captchaTried, setCaptchaTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'password' });

  const signedIn = (result: LoginResult) => {
    setAuth({ jwt: result.jwt, name: result.name, s: result.s });
    navigate(safeRedirect(search.get('redirect')), { replace: true });
  };
  /** What any first factor answered: the token, or the next step (the password is not kept for it). */
  const onAnswer = (reply: LoginAnswer) => {
    setError(null);
    if ('jwt' in reply) return signedIn(reply);
    setPassword('');
    if ('second_factor' in reply) setStep({ kind: 'second_factor', ...reply.second_factor });
    else setStep({ kind: 'enroll', ticket: reply.enroll.ticket });
  };
  const restart = () => {
    setStep({ kind: 'password' });
    setPassword('');
    setTouched(false);
  };

  const usernameError = touched && !username.trim() ? t('Please input username') : undefined;
  const passwordError = touched && !password ? t('Please input password') : undefined;
  const captchaError = captchaTried && captcha && !answer.trim() ? t('Please input the captcha.') : undefined;

  const loadCaptcha = async () => {
    try {
      setCaptcha(await fetchCaptcha());
      setAnswer('');
      setCaptchaTried(false);
    } catch {
      setCaptcha(null);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (captcha) setCaptchaTried(true);
    if (!username.trim() || !password || (captcha && !answer.trim())) return;
    setBusy(true);
    setError(null);
    try {
      const result = await login({
        username: username.trim(),
        password,
        captcha: captcha ? { id: captcha.id, answer: answer.trim() } : undefined,
      });
      onAnswer(result);
    } catch (err) {
      const code = isApiError(err) ? err.code : undefined;
      const text = typeof code === 'number' ? shownErrors[code] : undefined;
      if (text) setError(text);
      // The server asks for a captcha after repeated failures (already on the failure that crosses
      // the limit, via extra.captcha); every answer is single-use.
      const captchaAsked = isApiError(err) && err.extra?.captcha === 'required';
      if (captchaAsked || code === ErrorCode.CaptchaRequired || code === ErrorCode.CaptchaWrong || captcha) {
        await loadCaptcha();
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={styles.page}>
      <div className={styles.locale}>
        <LocaleSwitcher />
      </div>
      <main className={styles.card}>
        <div className={styles.head}>
          <Logo size={56} />
          <h1 className={styles.product} style={{ margin: 0 }}>
            Patrol
          </h1>
          <Text className={styles.sub}>{t(STEP_TEXT[step.kind])}</Text>
        </div>
        {error ? (
          <MessageBar intent="error">
            <MessageBarBody>{t(error)}</MessageBarBody>
          </MessageBar>
        ) : null}
        {step.kind === 'second_factor' ? (
          <SecondFactorStep
            ticket={step.ticket}
            methods={step.methods}
            onAnswer={onAnswer}
            onError={setError}
            onRestart={restart}
          />
        ) : step.kind === 'enroll' ? (
          <EnrollStep
            ticket={step.ticket}
            onSignedIn={signedIn}
            onExpired={() => {
              restart();
              setError('This sign-in has expired, please sign in again.');
            }}
          />
        ) : (
          <form className={styles.form} onSubmit={submit} noValidate>
            <Field label={t('Username')} required validationMessage={usernameError}>
              <Input
                name="username"
                autoComplete="username"
                contentBefore={<PersonRegular />}
                value={username}
                onChange={(_, d) => setUsername(d.value)}
                autoFocus
              />
            </Field>
            <Field label={t('Password')} required validationMessage={passwordError}>
              <Input
                name="password"
                type="password"
                autoComplete="current-password"
                contentBefore={<KeyRegular />}
                value={password}
                onChange={(_, d) => setPassword(d.value)}
              />
            </Field>
            {captcha ? (
              <Field label={t('Captcha')} required validationMessage={captchaError}>
                <div className={styles.captchaRow}>
                  <Input
                    className={styles.captchaInput}
                    name="captcha"
                    autoComplete="off"
                    contentBefore={<ShieldKeyholeRegular />}
                    value={answer}
                    onChange={(_, d) => setAnswer(d.value)}
                  />
                  <Tooltip content={t('Click to refresh')} relationship="label">
                    <button type="button" className={styles.captchaImage} onClick={() => void loadCaptcha()}>
                      <img src={captcha.image} alt={t('Captcha')} height={30} />
                    </button>
                  </Tooltip>
                </div>
              </Field>
            ) : null}
            <BusyButton type="submit" size="large" busy={busy}>
              {t('Sign in')}
            </BusyButton>
            {FIRST_STEP_METHODS.map((Method, i) => (
              <Method key={i} onAnswer={onAnswer} onError={setError} />
            ))}
          </form>
        )}
        <Text size={200} className={styles.footer}>
          © Patrol
        </Text>
      </main>
    </div>
  );
}
