import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useSubmitArtwork } from '../queries/artworks.ts';
import { tributeQueryOptions } from '../queries/tribute.ts';
import { serverMessageOf } from '../lib/api.ts';
import { artistDetailsProblem } from '../lib/validation.ts';
import { toast } from '../components/Toaster.tsx';
import { UploadArea } from './-components/submit/UploadArea.tsx';
import { NO_ABOUT, useAboutDraft } from './-components/submit/AboutFields.tsx';
import { hasContactDetails, NO_SUBMITTER, shownName } from './-components/submit/SubmitterFields.tsx';
import { PageHeader } from './-components/submit/FormSection.tsx';
import { UploadDetails } from './-components/submit/UploadDetails.tsx';
import { AltTextField, useAltTextDraft } from './-components/submit/AltTextField.tsx';
import { prepareImage } from './-components/submit/prepareImage.ts';

export const Route = createFileRoute('/submit')({
  component: SubmitArtworkPage,
});

interface ChosenImage {
  dataUrl: string;
  fileName: string;
}

function SubmitArtworkPage() {
  const name = useQuery(tributeQueryOptions()).data?.name;
  const [image, setImage] = useState<ChosenImage | null>(null);
  const [processing, setProcessing] = useState(false);
  const [about, setAbout] = useAboutDraft('artwork');
  const [altText, setAltText] = useAltTextDraft('artwork');
  const [submitter, setSubmitter] = useState(NO_SUBMITTER);

  const submit = useSubmitArtwork({
    onSuccess: () => {
      setAbout(NO_ABOUT);
      setAltText('');
      toast({ title: 'Success!', description: 'Your artwork has been submitted and is pending approval.' });
    },
    onError: (error) => {
      toast({
        title: 'Failed to submit artwork',
        description: serverMessageOf(error) ?? 'Please try again later.',
        variant: 'destructive',
      });
    },
  });

  async function onFile(file: File) {
    setProcessing(true);
    const prepared = await prepareImage(file);
    setProcessing(false);
    if (prepared) setImage({ dataUrl: prepared.dataUrl, fileName: file.name });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!image) return;
    const problem = artistDetailsProblem(submitter.name, submitter.email);
    if (problem) return toast({ ...problem, variant: 'destructive' });
    submit.mutate({
      title: about.title.trim(),
      description: about.description.trim(),
      altText: altText.trim(),
      imageData: image.dataUrl,
      artistName: shownName(submitter),
      email: submitter.email.trim(),
      isFromCanvas: 'false',
    });
  }

  const ready = Boolean(image) && hasContactDetails(submitter) && !processing;

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <PageHeader title="Submit Your Artwork">
        Upload a memory, a drawing or some AI-generated art celebrating your friend{name ? ` ${name}` : ''}.
      </PageHeader>

      <form onSubmit={onSubmit} noValidate className="space-y-8">
        <UploadArea
          preview={image?.dataUrl ?? null}
          fileName={image?.fileName ?? null}
          processing={processing}
          onFile={(file) => void onFile(file)}
          onRemove={() => setImage(null)}
        />

        <UploadDetails
          titles={{ about: 'Artwork Information', submitter: 'Artist Information' }}
          about={about}
          onAbout={setAbout}
          placeholders={{ title: 'Give your artwork a name', description: 'The story behind this piece' }}
          submitter={submitter}
          onSubmitter={setSubmitter}
          more={<AltTextField value={altText} onChange={setAltText} noun="picture" />}
        />

        <button type="submit" disabled={!ready || submit.isPending} className="btn-primary w-full py-3.5 text-lg">
          {submit.isPending ? 'Submitting...' : 'Submit to Gallery'}
        </button>
      </form>
    </div>
  );
}
