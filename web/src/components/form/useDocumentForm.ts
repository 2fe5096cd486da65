import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '@/api/ApiError';
import type { FormCheck } from '@/components/dialog/useFormDialog';

export interface DocumentFormOptions<D, F, B, R> {
  /** The loaded document; a new one (saved here, restored, or changed by someone else) replaces the draft. */
  document: D | undefined;
  /** The form as the document fills it. */
  toDraft: (document: D) => F;
  /** The shared rule (usually `checkWith(schema, …)`): the body to send, or a message per path. */
  check: (draft: F) => FormCheck<F, B>;
  save: (body: B) => Promise<R>;
  /** After a successful save, with what it answered, e.g. put it in the query cache. */
  onSaved?: (saved: R) => unknown;
}

/**
 * The state of a page that edits one loaded document (System Config, TG settings): the draft,
 * messages shown only after a first submit, the paths the server refused (cleared when that path
 * or anything inside it changes), and the busy flag. The page form's counterpart of useFormDialog.
 * A failed save keeps the draft: the request layer has shown the reason in a toast.
 */
export function useDocumentForm<D, F, B, R = unknown>({
  document,
  toDraft,
  check,
  save,
  onSaved,
}: DocumentFormOptions<D, F, B, R>) {
  const [draft, setDraft] = useState<F | undefined>();
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  // toDraft is a mapping the page declares inline: only a new document resets the draft.
  const toDraftNow = useRef(toDraft);
  toDraftNow.current = toDraft;
  const reset = useCallback(() => {
    setDraft(document === undefined ? undefined : toDraftNow.current(document));
    setTried(false);
    setServerErrors({});
  }, [document]);
  useEffect(reset, [reset]);

  const checked = draft === undefined ? undefined : check(draft);
  const errors: Record<string, string> = {
    ...(tried && checked?.errors ? (checked.errors as Record<string, string>) : {}),
    ...serverErrors,
  };

  /** Changes the draft at `path` (a field, or a dotted place inside one); the server's messages there go. */
  const edit = (path: string, next: (draft: F) => F) => {
    setDraft((d) => (d === undefined ? d : next(d)));
    setServerErrors((e) =>
      Object.fromEntries(Object.entries(e).filter(([p]) => p !== path && !p.startsWith(`${path}.`))),
    );
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (!checked || checked.errors || checked.body === undefined) return;
    setBusy(true);
    try {
      const saved = await save(checked.body);
      await onSaved?.(saved);
    } catch (error) {
      // A field the server named is marked too.
      if (isApiError(error) && error.extra) setServerErrors(error.extra);
    } finally {
      setBusy(false);
    }
  };

  return { draft, errors, busy, edit, submit, reset };
}
