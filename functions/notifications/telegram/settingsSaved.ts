// Who keeps a copy of the TG settings (the bank chat switch, bank/bankChat.ts) hears of a save in
// this process here, without the settings module depending on them.

const listeners = new Set<() => void>();

export function onTelegramSettingsSaved(listener: () => void): void {
  listeners.add(listener);
}

export function telegramSettingsSaved(): void {
  for (const listener of listeners) listener();
}
