import { useId } from 'react';

/** Patrol's mark: a shield (guarding) with a check (the bot's checks) and a sweep (patrolling). */
export function Logo({ size = 28, title = 'Patrol' }: { size?: number; title?: string }) {
  const id = useId().replace(/:/g, '');
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" role="img" aria-label={title}>
      <defs>
        <linearGradient id={`${id}-fill`} x1="4" y1="2" x2="28" y2="30" gradientUnits="userSpaceOnUse">
          <stop offset="0" stopColor="#2f8cea" />
          <stop offset="1" stopColor="#0b4f96" />
        </linearGradient>
        <linearGradient id={`${id}-sweep`} x1="16" y1="6" x2="16" y2="26" gradientUnits="userSpaceOnUse">
          <stop offset="0" stopColor="#ffffff" stopOpacity="0.35" />
          <stop offset="1" stopColor="#ffffff" stopOpacity="0" />
        </linearGradient>
      </defs>
      <path
        d="M16 1.8 27.6 6.1c.5.2.9.7.9 1.3v7.4c0 7.2-4.9 13.5-12 15.5-.3.1-.7.1-1 0-7.1-2-12-8.3-12-15.5V7.4c0-.6.4-1.1.9-1.3L16 1.8Z"
        fill={`url(#${id}-fill)`}
      />
      <path d="M16 5.2v21.6c-5.6-1.8-9.3-6.8-9.3-12.3V8.9L16 5.2Z" fill={`url(#${id}-sweep)`} />
      <path
        d="M10.4 15.9l3.7 3.7 7.6-8"
        fill="none"
        stroke="#ffffff"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
