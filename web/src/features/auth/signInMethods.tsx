// The ways of signing in besides the password and a code, each a component the login page renders
// with what it needs to finish a sign-in: a passkey (features/auth/PasskeysPanel's engineer) and
// single sign-on add themselves here with one line each, and the page needs no other change.
import type { LoginAnswer, SecondFactorMethod } from '@shared/schemas/auth';
import type { ComponentType } from 'react';
import { PasskeyFirstStep, PasskeySecondStep } from './PasskeySignInButton';
import { SsoButton } from './SsoButton';

export interface SignInMethodProps {
  /** Hands over what a first factor answered (POST /login's answer): the page takes the next step. */
  onAnswer(answer: LoginAnswer): void;
  /** Shows a failure on the page (an English text, translated there). */
  onError(text: string): void;
}

export interface SecondStepMethodProps extends SignInMethodProps {
  /** The second-factor ticket of the first step's answer. */
  ticket: string;
  /** What the user has: `totp`, `passkey`, `recovery`. */
  methods: readonly SecondFactorMethod[];
}

/** Under the password form: other first factors (a passkey alone, "Sign in with <name>"). */
export const FIRST_STEP_METHODS: readonly ComponentType<SignInMethodProps>[] = [PasskeyFirstStep, SsoButton];

/** Beside the code at the second step (a passkey, when `methods` has one). */
export const SECOND_STEP_METHODS: readonly ComponentType<SecondStepMethodProps>[] = [PasskeySecondStep];
