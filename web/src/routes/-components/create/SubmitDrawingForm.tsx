import type { StrokeRecording } from '../../../../../contract/strokes.ts';
import { useState, type FormEvent } from 'react';
import { useSubmitArtwork } from '../../../queries/artworks.ts';
import { serverMessageOf } from '../../../lib/api.ts';
import { artistDetailsProblem } from '../../../lib/validation.ts';
import { toast } from '../../../components/Toaster.tsx';
import { hasContactDetails, NO_SUBMITTER, shownName, SubmitterFields } from '../submit/SubmitterFields.tsx';
import { AboutFields, NO_ABOUT, useAboutDraft } from '../submit/AboutFields.tsx';
import { AltTextField, useAltTextDraft } from '../submit/AltTextField.tsx';
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
  const [about, setAbout] = useAboutDraft('drawing');
  const [altText, setAltText] = useAltTextDraft('drawing');
  const [submitter, setSubmitter] = useState(NO_SUBMITTER);
  const [preparing, setPreparing] = useState(false);

  const submit = useSubmitArtwork({
    onSuccess: () => {
      setAbout(NO_ABOUT);
      setAltText('');
      toast({ title: 'Success!', description: 'Your drawing has been submitted and is pending approval.' });
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
    const problem = artistDetailsProblem(submitter.name, submitter.email);
    if (problem) return toast({ ...problem, variant: 'destructive' });

    setPreparing(true);
    const imageData = await drawingForSubmission(canvas);
    setPreparing(false);
    submit.mutate({
      title: about.title.trim(),
      description: about.description.trim(),
      altText: altText.trim(),
      imageData,
      artistName: shownName(submitter),
      email: submitter.email.trim(),
      isFromCanvas: 'true',
      strokes: strokes?.() ?? undefined,
    });
  }

  const busy = preparing || submit.isPending;
  const ready = hasContent && hasContactDetails(submitter) && !busy;

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="card space-y-5 p-6">
      <div>
        <h2 className="font-display text-2xl font-semibold text-stone-900 dark:text-amber-50">Share your drawing</h2>
        <p className="mt-1 text-sm text-stone-500 dark:text-stone-400">
          It appears in the gallery once it has been approved.
        </p>
      </div>
      <AboutFields
        value={about}
        onChange={setAbout}
        placeholders={{ title: 'Give your drawing a name', description: 'What did you draw?' }}
      />
      <AltTextField value={altText} onChange={setAltText} noun="drawing" />
      <SubmitterFields
        value={submitter}
        onChange={setSubmitter}
        labels={{ name: 'Your Name', email: 'Email Address' }}
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
