import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useSubmitStory } from '../queries/stories.ts';
import { tributeQueryOptions } from '../queries/tribute.ts';
import { isValidEmail } from '../../../contract/email.ts';
import { toast } from '../components/Toaster.tsx';
import { useDraft } from '../lib/drafts.ts';
import { TextField } from './-components/submit/TextField.tsx';
import { NO_SUBMITTER, shownName, SubmitterFields, type Submitter } from './-components/submit/SubmitterFields.tsx';
import { PageHeader } from './-components/submit/FormSection.tsx';

export const Route = createFileRoute('/submit-story')({
  component: SubmitStoryPage,
});

interface StoryErrors {
  content?: string;
  authorName?: string;
  email?: string;
}

/** Spec §5 Story; name and email are checked only when the story is not anonymous. */
function storyErrors(content: string, { name, email, anonymous }: Submitter): StoryErrors {
  const errors: StoryErrors = {};
  if (!content.trim()) errors.content = 'Please write something before submitting';
  if (!anonymous && !name.trim()) errors.authorName = 'Please enter your name';
  if (!anonymous && !isValidEmail(email)) errors.email = 'Please enter a valid email address';
  return errors;
}

function SubmitStoryPage() {
  const name = useQuery(tributeQueryOptions()).data?.name;
  const [title, setTitle] = useDraft('story.title');
  const [content, setContent] = useDraft('story.content');
  const [submitter, setSubmitter] = useState(NO_SUBMITTER);
  const [errors, setErrors] = useState<StoryErrors>({});

  function clear() {
    setTitle('');
    setContent('');
    setSubmitter(NO_SUBMITTER);
    setErrors({});
  }

  const submit = useSubmitStory({
    onSuccess: () => {
      toast({
        title: 'Story submitted!',
        description: `Thank you for sharing your story about ${name ?? 'our friend'}!`,
      });
      clear();
    },
    onError: (error) => {
      toast({ title: 'Error', description: `Submission failed: Error: ${error.message}`, variant: 'destructive' });
    },
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = storyErrors(content, submitter);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    submit.mutate({
      title: title.trim() || null,
      content: content.trim(),
      authorName: shownName(submitter),
      // anonymous stories need no contact details (spec §2: name and email are disabled)
      email: submitter.anonymous ? null : submitter.email.trim(),
      isAnonymous: submitter.anonymous,
    });
  }

  const edit = (field: keyof StoryErrors, set: (value: string) => void) => (value: string) => {
    set(value);
    if (errors[field]) setErrors({ ...errors, [field]: undefined });
  };

  // Typing in a field clears its message; going anonymous clears both.
  function onSubmitter(next: Submitter) {
    setSubmitter(next);
    setErrors({
      content: errors.content,
      authorName: next.anonymous || next.name !== submitter.name ? undefined : errors.authorName,
      email: next.anonymous || next.email !== submitter.email ? undefined : errors.email,
    });
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      <PageHeader title="Tell a Story">
        Share a memory, a funny moment or a few kind words about {name ?? 'our friend'}. Stories appear in the gallery
        once approved.
      </PageHeader>

      <form onSubmit={onSubmit} noValidate className="card space-y-6 p-6 sm:p-8">
        <TextField label="Title" value={title} onChange={setTitle} optional placeholder="A headline for your story" />
        <TextField
          label="Your Story"
          value={content}
          onChange={edit('content', setContent)}
          multiline
          rows={8}
          required
          placeholder="Once upon a time at the office..."
          error={errors.content}
        />
        <SubmitterFields
          value={submitter}
          onChange={onSubmitter}
          labels={{ name: 'Your Name', email: 'Email' }}
          hint="Your story will show By Anonymous, and no name or email is needed."
          anonymousNeedsNoDetails
          sideBySide
          errors={{ name: errors.authorName, email: errors.email }}
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <button type="button" onClick={clear} disabled={submit.isPending} className="btn-secondary py-3">
            Clear Form
          </button>
          <button type="submit" disabled={submit.isPending} className="btn-primary py-3 text-lg sm:min-w-56">
            {submit.isPending ? 'Submitting...' : 'Submit to Gallery'}
          </button>
        </div>
      </form>
    </div>
  );
}
