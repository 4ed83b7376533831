import { createFileRoute, lazyRouteComponent } from '@tanstack/react-router';
import { Spinner } from '../components/Spinner.tsx';

// The studio and Fabric load only when /create is visited, in their own chunk.
export const Route = createFileRoute('/create')({
  component: lazyRouteComponent(() => import('./-components/create/DrawingStudio.tsx'), 'DrawingStudio'),
  pendingComponent: StudioLoading,
});

function StudioLoading() {
  return (
    <div className="flex flex-col items-center justify-center gap-4 py-32 text-stone-600 dark:text-stone-300">
      <Spinner className="h-10 w-10 text-amber-500" />
      <p className="text-lg">Preparing the studio...</p>
    </div>
  );
}
