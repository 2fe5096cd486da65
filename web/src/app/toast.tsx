// Toasts callable from anywhere (the request layer is not React). `ToastHost` mounts the two Fluent
// toasters once and hands their dispatchers to this module; calls made before it mounts are queued.
import {
  Link,
  Toast,
  ToastBody,
  ToastTitle,
  ToastTrigger,
  Toaster,
  type ToastIntent,
  useId,
  useToastController,
} from '@fluentui/react-components';
import { type ReactNode, useEffect } from 'react';
import { PUSH_TOAST_TIMEOUT_MS, TOAST_TIMEOUT_MS } from './constants';
import { t } from '@/i18n';

type Dispatch = (content: ReactNode, options: { intent?: ToastIntent; timeout?: number; toastId?: string }) => void;

/**
 * Push toasts stay until closed, so without a bound they pile up in a column while a check runs and
 * cover the page's own buttons (a rule's Save sat under four of them on a slow machine). Past this
 * many, a new one closes the oldest still open.
 */
export const PUSH_TOASTS_OPEN_MAX = 2;

let dispatchTop: Dispatch | null = null;
let dispatchPush: Dispatch | null = null;
let dismissPush: ((toastId: string) => void) | null = null;
/** The push toasts this module opened, oldest first (one the user closed is dismissed again harmlessly). */
const openPush: string[] = [];
let pushCount = 0;
const pending: Array<() => void> = [];

function whenMounted(run: () => void): void {
  if (dispatchTop && dispatchPush) run();
  else pending.push(run);
}

function show(intent: ToastIntent, title: string, body?: string): void {
  whenMounted(() =>
    dispatchTop?.(
      <Toast>
        <ToastTitle>
          <span style={{ whiteSpace: 'pre-line' }}>{title}</span>
        </ToastTitle>
        {body ? <ToastBody style={{ whiteSpace: 'pre-line' }}>{body}</ToastBody> : null}
      </Toast>,
      { intent, timeout: TOAST_TIMEOUT_MS },
    ),
  );
}

export const toast = {
  success: (text: string, body?: string) => show('success', text, body),
  error: (text: string, body?: string) => show('error', text, body),
  warning: (text: string, body?: string) => show('warning', text, body),
  info: (text: string, body?: string) => show('info', text, body),
};

/** The web-push toast: bottom right, stays until closed; `onOpen` adds an Open link. */
export function pushToast(title: string, body: string, onOpen?: () => void): void {
  whenMounted(() => {
    const toastId = `push-${++pushCount}`;
    openPush.push(toastId);
    while (openPush.length > PUSH_TOASTS_OPEN_MAX) {
      const oldest = openPush.shift();
      if (oldest) dismissPush?.(oldest);
    }
    dispatchPush?.(
      <Toast>
        <ToastTitle
          action={
            <ToastTrigger>
              <Link>{t('Close')}</Link>
            </ToastTrigger>
          }
        >
          {title}
        </ToastTitle>
        <ToastBody style={{ whiteSpace: 'pre-line' }}>
          {body}
          {onOpen ? (
            <div style={{ marginTop: 6 }}>
              <ToastTrigger>
                <Link onClick={onOpen}>{t('Open')}</Link>
              </ToastTrigger>
            </div>
          ) : null}
        </ToastBody>
      </Toast>,
      // The spec's 0 means "never"; Fluent spells never as -1 and would close a 0 at once.
      { intent: 'info', timeout: PUSH_TOAST_TIMEOUT_MS === 0 ? -1 : PUSH_TOAST_TIMEOUT_MS, toastId },
    );
  });
}

/** Mount once near the root. */
export function ToastHost(): ReactNode {
  const topId = useId('toaster-top');
  const pushId = useId('toaster-push');
  const top = useToastController(topId);
  const push = useToastController(pushId);
  useEffect(() => {
    dispatchTop = (content, options) => top.dispatchToast(content, options);
    dispatchPush = (content, options) => push.dispatchToast(content, options);
    dismissPush = (toastId) => push.dismissToast(toastId);
    for (const run of pending.splice(0)) run();
    return () => {
      dispatchTop = null;
      dispatchPush = null;
      dismissPush = null;
    };
  }, [top, push]);
  return (
    <>
      <Toaster toasterId={topId} position="top" limit={5} pauseOnHover />
      <Toaster toasterId={pushId} position="bottom-end" />
    </>
  );
}
