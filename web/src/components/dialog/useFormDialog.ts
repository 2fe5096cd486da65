import { type FormEvent, useState } from 'react';
import { isApiError } from '@/api/ApiError';

/** A field of the form, or a place inside one ('accounts.0.user'), as zod paths and the server's `extra` name it. */
export type FieldPath<F> = (keyof F & string) | `${keyof F & string}.${string}`;

export type FormErrors<F> = Partial<Record<FieldPath<F>, string>>;

/** What a form's rule says: the body to send (undefined = nothing changed), or a message per field. */
export type FormCheck<F, B> = { body: B | undefined; errors?: never } | { errors: FormErrors<F>; body?: never };

export interface FormDialogOptions<F, B, R = unknown> {
  /** The form as the dialog opens (and after it closes). */
  initial: () => F;
  check: (form: F) => FormCheck<F, B>;
  save: (body: B) => Promise<R>;
  /** After a successful save, with what it answered, e.g. reload the list. */
  onDone: (saved: R) => unknown;
}

/**
 * The state every form dialog has: open/closed, the form, messages shown only after a first
 * submit, the fields the server refused (cleared when that field changes), and the busy flag.
 * A failed save keeps the dialog open: the request layer has shown the reason in a toast.
 * A dialog its page mounts only while open (New Site) ignores `open`/`setOpen`: mounting resets it.
 */
export function useFormDialog<F extends object, B, R = unknown>({
  initial,
  check,
  save,
  onDone,
}: FormDialogOptions<F, B, R>) {
  const [open, setOpenState] = useState(false);
  const [form, setForm] = useState<F>(initial);
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<FormErrors<F>>({});
  const [busy, setBusy] = useState(false);
  const checked = check(form);
  const errors: FormErrors<F> = { ...(tried && checked.errors ? checked.errors : {}), ...serverErrors };

  const setOpen = (next: boolean) => {
    setOpenState(next);
    setForm(initial());
    setTried(false);
    setServerErrors({});
  };

  /** Sets a field; the server's messages on it (and inside it, e.g. on its rows) go, as they may no longer hold. */
  const change = <K extends keyof F & string>(key: K, value: F[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setServerErrors(
      (e) =>
        Object.fromEntries(
          Object.entries(e).filter(([path]) => path !== key && !path.startsWith(`${key}.`)),
        ) as FormErrors<F>,
    );
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTried(true);
    if (checked.errors) return;
    if (checked.body === undefined) {
      setOpen(false);
      return;
    }
    setBusy(true);
    try {
      const saved = await save(checked.body);
      setOpen(false);
      await onDone(saved);
    } catch (error) {
      // A field the server named (a taken username, the last super user's role) is marked too.
      if (isApiError(error) && error.extra) setServerErrors(error.extra as FormErrors<F>);
    } finally {
      setBusy(false);
    }
  };

  return { open, setOpen, form, change, errors, busy, submit };
}
