import type { StrokeRecording } from '../../../../../contract/strokes.ts';
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { artworkKeys, submitArtwork, type NewArtwork } from '../../../queries/artworks.ts';
import { galleryKeys } from '../../../queries/gallery.ts';
import { serverMessageOf } from '../../../lib/api.ts';
import { artistDetailsProblem } from '../../../lib/validation.ts';
import { toast } from '../../../components/Toaster.tsx';
import { AnonymousCheckbox } from '../submit/AnonymousCheckbox.tsx';
import { TextField } from '../submit/TextField.tsx';
import { drawingForSubmission } from './exportDrawing.ts';

interface SubmitDrawingFormProps {
  hasContent: boolean;
  /** The drawing as a canvas, or null before the studio is ready. */
  render: () => HTMLCanvasElement | null;
  /** The strokes drawn, sent along so the show can replay the drawing (CONTRACT §7). */
  strokes?: () => StrokeRecording | null;
}

/** The studio's side form (spec §2): it sends the drawing itself, with isFromCanvas 'true'. */
export function SubmitDrawingForm({ hasContent, render, strokes }: SubmitDrawingFormProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [artistName, setArtistName] = useState('');
  const [email, setEmail] = useState('');
  const [anonymous, setAnonymous] = useState(false);
  const [preparing, setPreparing] = useState(false);

  const submit = useMutation({
    mutationFn: (artwork: NewArtwork) => submitArtwork(artwork),
    onSuccess: async () => {
      toast({ title: 'Success!', description: 'Your drawing has been submitted and is pending approval.' });
      void queryClient.invalidateQueries({ queryKey: galleryKeys.all });
      void queryClient.invalidateQueries({ queryKey: artworkKeys.all });
      await navigate({ to: '/gallery' });
    },
    onError: (error) => {
      toast({
        title: 'Submission failed',
        description: serverMessageOf(error) ?? 'There was an error submitting your artwork. Please try again.',
        variant: 'destructive',
      });
    },
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const canvas = render();
    if (!canvas || !hasContent) {
      return toast({
        title: 'Missing artwork',
        description: 'Please draw something before submitting.',
        variant: 'destructive',
      });
    }
    const problem = artistDetailsProblem(artistName, email);
    if (problem) return toast({ ...problem, variant: 'destructive' });

    setPreparing(true);
    const imageData = await drawingForSubmission(canvas);
    setPreparing(false);
    submit.mutate({
      title: title.trim(),
      description: description.trim(),
      imageData,
      artistName: anonymous ? 'Anonymous' : artistName.trim(),
      email: email.trim(),
      isFromCanvas: 'true',
      strokes: strokes?.() ?? undefined,
    });
  }

  const busy = preparing || submit.isPending;
  const ready = hasContent && artistName.trim() !== '' && email.trim() !== '' && !busy;

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="card space-y-5 p-6">
      <div>
        <h2 className="font-display text-2xl font-semibold text-stone-900 dark:text-amber-50">Share your drawing</h2>
        <p className="mt-1 text-sm text-stone-500 dark:text-stone-400">
          It appears in the gallery once it has been approved.
        </p>
      </div>
      <TextField label="Title" value={title} onChange={setTitle} optional placeholder="Give your drawing a name" />
      <TextField
        label="Description"
        value={description}
        onChange={setDescription}
        multiline
        optional
        placeholder="What did you draw?"
      />
      <TextField label="Your Name" value={artistName} onChange={setArtistName} required autoComplete="name" />
      <TextField label="Email Address" type="email" value={email} onChange={setEmail} required autoComplete="email" />
      <AnonymousCheckbox
        checked={anonymous}
        onChange={setAnonymous}
        hint="Your name and email are still required for verification but will not be shown publicly."
      />
      <button type="submit" disabled={!ready} className="btn-primary w-full py-3 text-lg">
        {busy ? 'Submitting...' : 'Submit to Gallery'}
      </button>
      {!hasContent && (
        <p className="text-center text-xs text-stone-500 dark:text-stone-400">
          Draw something on the canvas to submit it.
        </p>
      )}
    </form>
  );
}
