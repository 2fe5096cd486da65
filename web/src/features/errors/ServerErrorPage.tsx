import { ErrorPage } from './ErrorPage';

export default function ServerErrorPage() {
  return (
    <ErrorPage
      code={500}
      title="Something went wrong"
      text="The server could not complete the request. Please try again later."
    />
  );
}
