import { Link } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';

/** A Fluent link that moves inside the app (keeps the page tabs and the query cache); ctrl/cmd-click still opens a new tab. */
export function RouteLink({
  to,
  children,
  onNavigate,
}: {
  to: string;
  children: ReactNode;
  onNavigate?(): void;
}): ReactNode {
  const navigate = useNavigate();
  return (
    <Link
      href={to}
      inline
      onClick={(e) => {
        if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
        e.preventDefault();
        onNavigate?.();
        navigate(to);
      }}
    >
      {children}
    </Link>
  );
}
