import { useState, type FormEvent } from 'react';
import { toast } from '../../../components/Toaster.tsx';
import {
  kindNoun,
  useEditContribution,
  type Contribution,
  type ContributionEdit,
  type ContributionText,
} from '../../../queries/mine.ts';
import { TextField } from '../submit/TextField.tsx';

type Field = 'title' | 'description' | 'tags' | 'artistName' | 'content' | 'authorName';

/** The fields a sender may change, by kind, with the submission forms' labels and limits. */
const FIELDS: Record<'story' | 'work', Array<{ field: Field; label: string; multiline?: boolean; max: number }>> = {
  story: [
    { field: 'title', label: 'Title', max: 255 },
    { field: 'content', label: 'Your story', multiline: true, max: 20_000 },
    { field: 'authorName', label: 'Your name', max: 255 },
  ],
  work: [
    { field: 'title', label: 'Title', max: 255 },
    { field: 'description', label: 'Description', multiline: true, max: 5000 },
    { field: 'tags', label: 'Tags', max: 1000 },
    { field: 'artistName', label: 'Artist name', max: 255 },
  ],
};

const REQUIRED: Partial<Record<Field, string>> = {
  content: 'Please write something before submitting',
  authorName: 'Please enter your name',
  artistName: 'Artist name is required',
};

/** Edits a pending item's words in place; only the fields that changed are sent. */
export function EditContribution({
  item,
  text,
  onDone,
}: {
  item: Contribution;
  text: ContributionText;
  onDone: () => void;
}) {
  const fields = FIELDS[item.kind === 'story' ? 'story' : 'work'].filter(
    // an anonymous story has no name to change
    (f) => !(f.field === 'authorName' && text.isAnonymous),
  );
  const initial = Object.fromEntries(fields.map((f) => [f.field, String(text[f.field] ?? '')])) as Record<
    Field,
    string
  >;
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const edit = useEditContribution({
    onSuccess: () => {
      toast({ title: 'Changes saved', description: `Your ${kindNoun(item.kind)} is waiting for approval.` });
      onDone();
    },
    onError: (error) => toast({ title: 'Could not save', description: error.message, variant: 'destructive' }),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Partial<Record<Field, string>> = {};
    for (const { field } of fields) {
      const message = REQUIRED[field];
      const tooShort = field === 'artistName' ? values[field].trim().length < 2 : !values[field].trim();
      if (message && tooShort) found[field] = message;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const changed: ContributionEdit = {};
    for (const { field } of fields) {
      if (values[field].trim() !== initial[field].trim()) changed[field] = values[field].trim() || null;
    }
    if (Object.keys(changed).length === 0) return onDone();
    edit.mutate({ kind: item.kind, id: item.id, edit: changed });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="mt-4 space-y-4 rounded-xl bg-amber-50/60 p-4 dark:bg-stone-950/40">
      {fields.map(({ field, label, multiline, max }) => (
        <TextField
          key={field}
          label={label}
          value={values[field]}
          multiline={multiline}
          rows={field === 'content' ? 6 : 3}
          maxLength={max}
          optional={!REQUIRED[field]}
          required={!!REQUIRED[field]}
          error={errors[field]}
          onChange={(value) => {
            setValues({ ...values, [field]: value });
            if (errors[field]) setErrors({ ...errors, [field]: undefined });
          }}
        />
      ))}
      <div className="flex flex-wrap justify-end gap-3">
        <button type="button" className="btn-secondary" onClick={onDone} disabled={edit.isPending}>
          Cancel
        </button>
        <button type="submit" className="btn-primary" disabled={edit.isPending}>
          {edit.isPending ? 'Saving…' : 'Save changes'}
        </button>
      </div>
    </form>
  );
}
