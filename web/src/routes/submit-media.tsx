import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import {
  MEDIA_MAX_BYTES,
  mediaKeys,
  mediaTypeOf,
  processMedia,
  submitMedia,
  uploadMediaFile,
  UploadError,
  type NewMedia,
  type UploadResult,
} from '../queries/media.ts';
import { adminKeys } from '../queries/admin.ts';
import { tributeQueryOptions } from '../queries/tribute.ts';
import { serverMessageOf } from '../lib/api.ts';
import { artistDetailsProblem } from '../lib/validation.ts';
import { toast } from '../components/Toaster.tsx';
import { TextField } from './-components/submit/TextField.tsx';
import { AnonymousCheckbox } from './-components/submit/AnonymousCheckbox.tsx';
import { FormSection, PageHeader } from './-components/submit/FormSection.tsx';
import { MediaUploadBox, type UploadState } from './-components/submit/MediaUploadBox.tsx';

export const Route = createFileRoute('/submit-media')({
  component: SubmitMediaPage,
});

/** Spec §5 Media file rules, as a toast; null when the file may be uploaded. */
function fileProblem(file: File) {
  if (file.size > MEDIA_MAX_BYTES) return { title: 'File too large', description: 'File size must be under 512MB' };
  if (!mediaTypeOf(file.type))
    return { title: 'Invalid file type', description: 'Please select a video or audio file' };
  return null;
}

function SubmitMediaPage() {
  const queryClient = useQueryClient();
  const name = useQuery(tributeQueryOptions()).data?.name;
  const [upload, setUpload] = useState<UploadState>({ status: 'idle' });
  const [uploaded, setUploaded] = useState<UploadResult | null>(null);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [artistName, setArtistName] = useState('');
  const [email, setEmail] = useState('');
  const [anonymous, setAnonymous] = useState(false);
  const running = useRef<AbortController | null>(null);

  useEffect(() => () => running.current?.abort(), []);

  // The file goes up as soon as it is chosen; the form is sent once it is stored.
  function startUpload(file: File) {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    const current = () => running.current === controller && !controller.signal.aborted;
    setUploaded(null);
    setUpload({ status: 'uploading', file, percent: 0 });
    uploadMediaFile(
      file,
      (percent) => current() && setUpload({ status: 'uploading', file, percent }),
      controller.signal,
    ).then(
      (result) => {
        if (!current()) return;
        setUploaded(result);
        setUpload({ status: 'success', file });
        toast({ title: 'Upload successful', description: `${file.name} is ready. Add your details and submit.` });
      },
      (error: unknown) => {
        if (!current()) return;
        const message = error instanceof UploadError ? error.message : 'Upload failed: An error occurred during upload';
        setUpload({ status: 'error', file, message });
        const serverMessage = error instanceof UploadError ? error.serverMessage : undefined;
        toast({ title: serverMessage ?? 'Upload failed', description: message, variant: 'destructive' });
      },
    );
  }

  function onFile(file: File) {
    const problem = fileProblem(file);
    if (problem) return toast({ ...problem, variant: 'destructive' });
    startUpload(file);
  }

  function removeFile() {
    running.current?.abort();
    running.current = null;
    setUploaded(null);
    setUpload({ status: 'idle' });
  }

  function reset() {
    removeFile();
    setTitle('');
    setDescription('');
    setArtistName('');
    setEmail('');
    setAnonymous(false);
  }

  const submit = useMutation({
    mutationFn: async (media: NewMedia) => {
      const saved = await submitMedia(media);
      // Post-processing is queued by the save too; a failure here only means it is not queued twice.
      await processMedia(saved.id, media.mediaData).catch((error: unknown) =>
        console.warn('Media processing request failed', error),
      );
      return saved;
    },
    onSuccess: () => {
      toast({ title: 'Success!', description: 'Your media has been submitted and is pending approval.' });
      reset();
      void queryClient.invalidateQueries({ queryKey: mediaKeys.all });
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: (error) => {
      toast({
        title: serverMessageOf(error) ?? 'Error',
        description: 'Failed to submit media: Please try again later.',
        variant: 'destructive',
      });
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = artistDetailsProblem(artistName, email);
    if (problem) return toast({ ...problem, variant: 'destructive' });
    if (!uploaded || upload.status !== 'success') {
      return toast({
        title: 'No file uploaded',
        description: 'Please upload a video or audio file first.',
        variant: 'destructive',
      });
    }
    const { file } = upload;
    submit.mutate({
      title: title.trim(),
      description: description.trim(),
      artistName: anonymous ? 'Anonymous' : artistName.trim(),
      email: email.trim(),
      mediaType: uploaded.mediaType ?? mediaTypeOf(file.type) ?? 'video',
      mediaData: uploaded.path,
      mimeType: uploaded.mimeType ?? file.type,
      status: 'pending',
    });
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <PageHeader title="Add Media">
        Record a video greeting or an audio message for {name ?? 'our friend'}. It appears in the gallery once approved.
      </PageHeader>

      <form onSubmit={onSubmit} noValidate className="space-y-8">
        <MediaUploadBox
          state={upload}
          onFile={onFile}
          onRetry={() => upload.status === 'error' && startUpload(upload.file)}
          onRemove={removeFile}
        />

        <FormSection title="Media Information">
          <TextField label="Title" value={title} onChange={setTitle} optional placeholder="Give your message a name" />
          <TextField
            label="Description"
            value={description}
            onChange={setDescription}
            multiline
            optional
            placeholder="What is it about?"
          />
        </FormSection>

        <FormSection title="Your Information">
          <TextField label="Name" value={artistName} onChange={setArtistName} required autoComplete="name" />
          <TextField label="Email" type="email" value={email} onChange={setEmail} required autoComplete="email" />
          <AnonymousCheckbox
            checked={anonymous}
            onChange={setAnonymous}
            hint="Your name and contact details are still required for verification but will not be shown publicly."
          />
        </FormSection>

        <button
          type="submit"
          disabled={upload.status === 'uploading' || submit.isPending}
          className="btn-primary w-full py-3.5 text-lg"
        >
          {submit.isPending ? 'Submitting...' : 'Submit to Gallery'}
        </button>
      </form>
    </div>
  );
}
