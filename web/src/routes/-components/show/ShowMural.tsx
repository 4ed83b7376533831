import { Spinner } from '../../../components/Spinner.tsx';
import { useLiveMural } from '../../../mural/useLiveMural.ts';

/**
 * The mural on the show's screens (decision 046): the same canvas and painter as `/mural?screen`,
 * read-only, filling up live as the room draws. Loaded only when the presenter puts the mural up.
 */
export default function ShowMural() {
  const { baseRef, snapshot } = useLiveMural();
  return (
    <div className="relative aspect-[2/1] w-[min(100%,calc((100dvh-17rem)*2))] overflow-hidden rounded-xl border border-stone-300 bg-white shadow-2xl dark:border-stone-700">
      <canvas
        ref={baseRef}
        data-testid="mural-canvas"
        aria-label="The group mural, live"
        role="img"
        className="absolute inset-0 h-full w-full"
      />
      {snapshot.isPending && (
        <div className="absolute inset-0 flex items-center justify-center">
          <Spinner className="h-10 w-10 text-amber-500" />
        </div>
      )}
    </div>
  );
}
