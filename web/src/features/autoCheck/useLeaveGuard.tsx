import { type ReactNode, useCallback, useEffect, useRef } from 'react';
import { type BlockerFunction, useBlocker } from 'react-router-dom';
import { RuleMessages } from '@shared/schemas/autoCheck';
import { ConfirmDialog } from '@/components/dialog';
import { useT } from '@/i18n';

/**
 * Asks before unsaved changes are lost (spec section 5): a move inside the app (menu, page tab, link,
 * back button) waits for the answer to RuleMessages.leave; closing or reloading the tab gets the
 * browser's own prompt, as browsers show no page text on `beforeunload`. `release()` lets the next
 * move through, for the navigation that follows a successful save. Needs a data router
 * (createBrowserRouter / createMemoryRouter), which the app uses.
 */
export function useLeaveGuard(dirty: boolean): { prompt: ReactNode; release(): void } {
  const t = useT();
  const released = useRef(false);
  // A ref, not state: the save's navigate() runs in the same tick as release(), before a re-render.
  const guarding = useRef(dirty);
  guarding.current = dirty;
  const blocker = useBlocker(
    useCallback<BlockerFunction>(
      ({ currentLocation, nextLocation }) =>
        guarding.current && !released.current && currentLocation.pathname !== nextLocation.pathname,
      [],
    ),
  );

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (released.current) return;
      e.preventDefault();
      // Older Chromium only asks when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const prompt = (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      message={t(RuleMessages.leave)}
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    />
  );
  return {
    prompt,
    release: () => {
      released.current = true;
    },
  };
}
