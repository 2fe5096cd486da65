import { ErrorPage } from './ErrorPage';

export default function ForbiddenPage() {
  return <ErrorPage code={403} title="Access denied" text="You do not have permission to open this page." />;
}
