import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { StrokeReplay, strokesQueryOptions } from './StrokeReplay.tsx';
import { pictureAlt, type ArtworkView as Artwork } from '../../../../../contract/views.ts';

/**
 * A drawing's picture with "Replay drawing" over it (then "Replay again"), which replays it in place
 * (StrokeReplay) inside a box of `replayClassName`. The detail page and the admin queue show it alike.
 * Only a drawing sent from /create has strokes to replay: a frozen mural is a canvas picture too, but
 * its strokes are the mural's, not a recording (404), and so is a drawing older than recordings. The
 * recording is fetched with the picture, so the button appears only when there is something to play.
 * The parent positions the button: give it `relative`.
 */
export function ReplayablePicture({
  artwork,
  picture,
  replayClassName,
}: {
  artwork: Pick<Artwork, 'id' | 'imageData' | 'isFromCanvas' | 'title' | 'artistName' | 'altText'>;
  picture: ReactNode;
  replayClassName: string;
}) {
  const [replaying, setReplaying] = useState(0);
  const drawing = artwork.isFromCanvas === 'true';
  const strokes = useQuery({ ...strokesQueryOptions(artwork.id), enabled: drawing });
  const replayable = drawing && (strokes.data?.strokes.length ?? 0) > 0;
  const alt = pictureAlt(artwork);
  return (
    <>
      {replaying ? (
        <div className={replayClassName}>
          <StrokeReplay key={replaying} artworkId={artwork.id} imageUrl={artwork.imageData} alt={alt} />
        </div>
      ) : (
        picture
      )}
      {replayable && (
        <button
          type="button"
          onClick={() => setReplaying((n) => n + 1)}
          className="btn-secondary absolute right-3 bottom-3 text-sm"
        >
          {replaying ? 'Replay again' : 'Replay drawing'}
        </button>
      )}
    </>
  );
}
