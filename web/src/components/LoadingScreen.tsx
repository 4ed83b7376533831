import { Spinner } from './Spinner.tsx';

export function LoadingScreen() {
  return (
    <div
      role="status"
      className="flex min-h-screen flex-col items-center justify-center gap-4 text-amber-800 dark:text-amber-300"
    >
      <Spinner className="h-10 w-10" />
      <p className="text-lg font-medium">Loading...</p>
    </div>
  );
}
