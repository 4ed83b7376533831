import { useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { artworkKeys, submitArtwork, type NewArtwork } from '../queries/artworks.ts';
import { galleryKeys } from '../queries/gallery.ts';
import { tributeQueryOptions } from '../queries/tribute.ts';
import { serverMessageOf } from '../lib/api.ts';
import { isValidEmail } from '../lib/validation.ts';
import { toast } from '../components/Toaster.tsx';
import { UploadArea } from './-components/submit/UploadArea.tsx';
import { TextField } from './-components/submit/TextField.tsx';
import { prepareImage } from './-components/submit/prepareImage.ts';

export const Route = createFileRoute('/submit')({
  component: SubmitArtworkPage,
});

interface ChosenImage {
  dataUrl: string;
  fileName: string;
}

function SubmitArtworkPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const name = useQuery(tributeQueryOptions()).data?.name;
  const [image, setImage] = useState<ChosenImage | null>(null);
  const [processing, setProcessing] = useState(false);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [artistName, setArtistName] = useState('');
  const [email, setEmail] = useState('');
  const [anonymous, setAnonymous] = useState(false);

  const submit = useMutation({
    mutationFn: (artwork: NewArtwork) => submitArtwork(artwork),
    onSuccess: async () => {
      toast({ title: 'Success!', description: 'Your artwork has been submitted and is pending approval.' });
      void queryClient.invalidateQueries({ queryKey: galleryKeys.all });
      void queryClient.invalidateQueries({ queryKey: artworkKeys.all });
      await navigate({ to: '/gallery' });
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
    if (!artistName.trim()) {
      return toast({
        title: 'Missing artist name',
        description: 'Please provide your name in the artist information section.',
        variant: 'destructive',
      });
    }
    if (!email.trim()) {
      return toast({
        title: 'Missing email',
        description: 'Please provide your email address in the artist information section.',
        variant: 'destructive',
      });
    }
    if (!isValidEmail(email)) {
      return toast({ title: 'Invalid email', description: 'Please enter a valid email address.', variant: 'destructive' });
    }
    submit.mutate({
      title: title.trim(),
      description: description.trim(),
      imageData: image.dataUrl,
      artistName: anonymous ? 'Anonymous' : artistName.trim(),
      email: email.trim(),
      isFromCanvas: 'false',
    });
  }

  const ready = Boolean(image) && artistName.trim() !== '' && email.trim() !== '' && !processing;

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <header className="mb-10 text-center">
        <h1 className="font-display text-4xl font-bold text-stone-900 sm:text-5xl dark:text-amber-50">Submit Your Artwork</h1>
        <p className="mx-auto mt-4 max-w-xl text-lg text-stone-600 dark:text-stone-300">
          Upload a memory, a drawing or some AI-generated art celebrating your friend{name ? ` ${name}` : ''}.
        </p>
      </header>

      <form onSubmit={onSubmit} noValidate className="space-y-8">
        <UploadArea
          preview={image?.dataUrl ?? null}
          fileName={image?.fileName ?? null}
          processing={processing}
          onFile={(file) => void onFile(file)}
          onRemove={() => setImage(null)}
        />

        <Section title="Artwork Information">
          <TextField label="Title" value={title} onChange={setTitle} optional placeholder="Give your artwork a name" />
          <TextField
            label="Description"
            value={description}
            onChange={setDescription}
            multiline
            optional
            placeholder="The story behind this piece"
          />
        </Section>

        <Section title="Artist Information">
          <TextField label="Name" value={artistName} onChange={setArtistName} required autoComplete="name" />
          <TextField label="Email" type="email" value={email} onChange={setEmail} required autoComplete="email" />
          <div className="flex items-start gap-3">
            <input
              id="submit-anonymously"
              type="checkbox"
              checked={anonymous}
              onChange={(event) => setAnonymous(event.target.checked)}
              aria-describedby="anonymous-hint"
              className="mt-0.5 h-5 w-5 cursor-pointer accent-rose-500"
            />
            <div>
              <label htmlFor="submit-anonymously" className="cursor-pointer font-medium text-stone-800 dark:text-stone-100">
                Submit anonymously
              </label>
              <p id="anonymous-hint" className="text-sm text-stone-500 dark:text-stone-400">
                Your name and contact details are still required for verification but will not be shown publicly.
              </p>
            </div>
          </div>
        </Section>

        <button type="submit" disabled={!ready || submit.isPending} className="btn-primary w-full py-3.5 text-lg">
          {submit.isPending ? 'Submitting...' : 'Submit to Gallery'}
        </button>
      </form>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card space-y-5 p-6 sm:p-8">
      <h2 className="font-display text-2xl font-semibold text-stone-900 dark:text-amber-50">{title}</h2>
      {children}
    </section>
  );
}
