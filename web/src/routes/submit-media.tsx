import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import {
  MEDIA_MAX_BYTES,
  mediaTypeOf,
  setCaptions,
  uploadMediaFile,
  UploadError,
  useSubmitMedia,
  type UploadResult,
} from '../queries/media.ts';
import { tributeQueryOptions } from '../queries/tribute.ts';
import { serverMessageOf } from '../lib/api.ts';
import { artistDetailsProblem } from '../lib/validation.ts';
import { toast } from '../components/Toaster.tsx';
import { NO_ABOUT, useAboutDraft } from './-components/submit/AboutFields.tsx';
import { NO_SUBMITTER, shownName } from './-components/submit/SubmitterFields.tsx';
import { PageHeader } from './-components/submit/FormSection.tsx';
import { UploadDetails } from './-components/submit/UploadDetails.tsx';
import { MediaUploadBox, type UploadState } from './-components/submit/MediaUploadBox.tsx';
import { RecordBox } from './-components/submit/RecordBox.tsx';
import { CaptionsPicker, type ChosenCaptions } from './-components/media/CaptionsPicker.tsx';

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
  const name = useQuery(tributeQueryOptions()).data?.name;
  const [upload, setUpload] = useState<UploadState>({ status: 'idle' });
  const [uploaded, setUploaded] = useState<UploadResult | null>(null);
  const [about, setAbout] = useAboutDraft('media');
  const [submitter, setSubmitter] = useState(NO_SUBMITTER);
  const [captions, setCaptionsFile] = useState<ChosenCaptions | null>(null);
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
      (percent) =>
        current() &&
        setUpload((shown) => ({
          status: 'uploading',
          file,
          percent: percent ?? (shown.status === 'uploading' ? shown.percent : 0),
          resuming: percent === null,
        })),
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
    setAbout(NO_ABOUT);
    setSubmitter(NO_SUBMITTER);
    setCaptionsFile(null);
  }

  const submit = useSubmitMedia({
    onSuccess: async (saved) => {
      // the track goes with the message it captions or transcribes; the message is kept even if the track is refused
      const refused =
        captions &&
        (await setCaptions(saved.id, captions.text).then(
          () => null,
          (error: unknown) => error,
        ));
      toast({ title: 'Success!', description: 'Your media has been submitted and is pending approval.' });
      if (refused) {
        toast({
          title: saved.mediaType === 'video' ? 'Your captions were not added' : 'Your transcript was not added',
          description: serverMessageOf(refused) ?? 'Please try again later.',
          variant: 'destructive',
        });
      }
      reset();
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
    const problem = artistDetailsProblem(submitter.name, submitter.email);
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
      title: about.title.trim(),
      description: about.description.trim(),
      artistName: shownName(submitter),
      email: submitter.email.trim(),
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
        <RecordBox onFile={onFile} disabled={upload.status === 'uploading'} />
        <p className="text-center text-sm font-medium text-stone-500 dark:text-stone-400">or choose a file</p>
        <MediaUploadBox
          state={upload}
          onFile={onFile}
          onRetry={() => upload.status === 'error' && startUpload(upload.file)}
          onRemove={removeFile}
        />

        <UploadDetails
          titles={{ about: 'Media Information', submitter: 'Your Information' }}
          about={about}
          onAbout={setAbout}
          placeholders={{ title: 'Give your message a name', description: 'What is it about?' }}
          submitter={submitter}
          onSubmitter={setSubmitter}
          more={
            <CaptionsPicker
              chosen={captions}
              onChange={setCaptionsFile}
              disabled={submit.isPending}
              mediaType={uploaded?.mediaType}
            />
          }
        />

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
