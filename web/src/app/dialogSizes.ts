// Dialog widths of spec section 9. Fluent's DialogSurface takes a CSS width through `style`,
// e.g. `<DialogSurface style={{ maxWidth: dialogWidth('60vw'), width: dialogWidth('60vw') }}>`.

/** Below this screen width a 30vw default dialog would be too narrow to use, so it is 700px instead. */
export const WIDE_SCREEN_MIN_PX = 2334;

export const dialogSizes = {
  /** Default: 700px on ordinary screens, 30vw on very wide ones. */
  default: 'default',
  s40: '40vw',
  /** Video player. */
  s50: '50vw',
  /** Site dialogs. */
  s60: '60vw',
  s80: '80vw',
  s90: '90vw',
} as const;
export type DialogSize = (typeof dialogSizes)[keyof typeof dialogSizes];

/** CSS width of a dialog of `size`, for the current screen. */
export function dialogWidth(size: DialogSize = 'default', screenWidth = globalThis.innerWidth ?? 1280): string {
  if (size !== 'default') return size;
  return screenWidth >= WIDE_SCREEN_MIN_PX ? '30vw' : '700px';
}

/** Style object for a Fluent `DialogSurface` (its own max-width would otherwise cap the width at 600px). */
export function dialogSurfaceStyle(size: DialogSize = 'default'): { width: string; maxWidth: string } {
  const width = dialogWidth(size);
  return { width, maxWidth: size === 'default' ? `min(${width}, 96vw)` : width };
}
